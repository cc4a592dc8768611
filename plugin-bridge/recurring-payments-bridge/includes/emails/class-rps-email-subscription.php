<?php
defined( 'ABSPATH' ) || exit;

/**
 * What the plugin's subscription e-mails share: sent to the subscription's customer (the address the
 * service has, read from the API, never from the callback), the subscription's name in
 * `{subscription_name}`, and one layout — emails/rps-subscription.php and its plain twin, looked up by
 * wc_get_template in the theme's recurring-payments-bridge/ folder first — around the lines each
 * e-mail says (message_lines(); a theme or plugin changes them with the `rps_subscription_email_lines`
 * filter, or the layout by the e-mail's id).
 */
abstract class RPS_Email_Subscription extends WC_Email {

	/** @var array<string, mixed> the subscription as the service answered it */
	protected array $subscription = array();
	/** @var array<string, mixed> the callback's body */
	protected array $event = array();
	/** @var list<string> */
	protected array $others = array();

	/** The layout every subscription e-mail uses, under templates/. */
	public const TEMPLATE = 'rps-subscription.php';

	/**
	 * What the e-mail tells the customer, one paragraph a line (plain text: the layout escapes it).
	 *
	 * @return list<string>
	 */
	abstract protected function message_lines(): array;

	public function __construct() {
		$this->customer_email = true;
		$this->template_base  = RPS_Emails::template_base();
		$this->template_html  = 'emails/' . self::TEMPLATE;
		$this->template_plain = 'emails/plain/' . self::TEMPLATE;
		$this->placeholders   = array( '{subscription_name}' => '' );
		parent::__construct();
	}

	/**
	 * @param array<string, mixed> $subscription
	 * @param array<string, mixed> $event
	 * @param list<string>         $others
	 */
	public function trigger( array $subscription, array $event, array $others = array() ): bool {
		$this->setup_locale();
		$this->subscription = $subscription;
		$this->event        = $event;
		$this->others       = $others;
		$customer           = is_array( $subscription['customer'] ?? null ) ? $subscription['customer'] : array();
		$this->recipient    = (string) ( $customer['email'] ?? '' );
		$this->placeholders['{subscription_name}'] = (string) ( $subscription['name'] ?? '' );
		$sent = false;
		if ( $this->is_enabled() && $this->get_recipient() ) {
			$sent = (bool) $this->send( $this->get_recipient(), $this->get_subject(), $this->get_content(), $this->get_headers(), $this->get_attachments() );
		}
		$this->restore_locale();
		return $sent;
	}

	/** @return array<string, mixed> what every template gets */
	protected function template_args( bool $plain_text ): array {
		$customer = is_array( $this->subscription['customer'] ?? null ) ? $this->subscription['customer'] : array();
		$name     = trim( (string) ( $customer['first_name'] ?? '' ) );
		/** @var list<string> $lines */
		$lines = (array) apply_filters( 'rps_subscription_email_lines', $this->message_lines(), $this->id, $this->subscription, $this->event );
		return array(
			'subscription'       => $this->subscription,
			'event'              => $this->event,
			/* translators: %s: the customer's first name */
			'greeting'           => '' !== $name ? sprintf( __( 'Hi %s,', 'recurring-payments-bridge' ), $name ) : __( 'Hello,', 'recurring-payments-bridge' ),
			'lines'              => array_map( 'strval', $lines ),
			'email_heading'      => $this->get_heading(),
			'additional_content' => $this->get_additional_content(),
			'sent_to_admin'      => false,
			'plain_text'         => $plain_text,
			'email'              => $this,
		);
	}

	public function get_content_html(): string {
		return wc_get_template_html( $this->template_html, $this->template_args( false ), RPS_Emails::TEMPLATE_PATH, $this->template_base );
	}

	public function get_content_plain(): string {
		return wc_get_template_html( $this->template_plain, $this->template_args( true ), RPS_Emails::TEMPLATE_PATH, $this->template_base );
	}

	/** The subscription's name, as the service has it. */
	protected function name(): string {
		return (string) ( $this->subscription['name'] ?? '' );
	}

	/**
	 * "The next payment is on …", when the subscription has a next payment.
	 *
	 * @return list<string>
	 */
	protected function next_payment_line(): array {
		$next = self::date( $this->subscription['next_payment_at'] ?? null );
		/* translators: %s: a date */
		return '' === $next ? array() : array( sprintf( __( 'The next payment is on %s.', 'recurring-payments-bridge' ), $next ) );
	}

	/** A date of the service (Y-m-d) in the store's date format. */
	public static function date( mixed $ymd ): string {
		if ( ! is_string( $ymd ) || ! preg_match( '/^\d{4}-\d{2}-\d{2}$/', $ymd ) ) {
			return '';
		}
		return date_i18n( wc_date_format(), (int) strtotime( $ymd . ' 12:00:00' ) );
	}
}
