<?php
defined( 'ABSPATH' ) || exit;

/**
 * What the plugin's subscription e-mails share: sent to the subscription's customer (the address the
 * service has, read from the API, never from the callback), the subscription's name in
 * `{subscription_name}`, and an HTML and a plain template each, looked up by wc_get_template in the
 * theme's recurring-payments-bridge/ folder first.
 */
abstract class RPS_Email_Subscription extends WC_Email {

	/** @var array<string, mixed> the subscription as the service answered it */
	protected array $subscription = array();
	/** @var array<string, mixed> the callback's body */
	protected array $event = array();
	/** @var list<string> */
	protected array $others = array();

	/** The template's name under emails/ (without .php): rps-subscription-cancelled… */
	abstract protected function template_name(): string;

	public function __construct() {
		$this->customer_email = true;
		$this->template_base  = RPS_Emails::template_base();
		$this->template_html  = 'emails/' . $this->template_name() . '.php';
		$this->template_plain = 'emails/plain/' . $this->template_name() . '.php';
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
		return array(
			'subscription'       => $this->subscription,
			'customer_name'      => trim( (string) ( $customer['first_name'] ?? '' ) ),
			'event'              => $this->event,
			'others'             => $this->others,
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

	/** A date of the service (Y-m-d) in the store's date format. */
	public static function date( mixed $ymd ): string {
		if ( ! is_string( $ymd ) || ! preg_match( '/^\d{4}-\d{2}-\d{2}$/', $ymd ) ) {
			return '';
		}
		return date_i18n( wc_date_format(), (int) strtotime( $ymd . ' 12:00:00' ) );
	}
}
