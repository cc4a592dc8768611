<?php
defined( 'ABSPATH' ) || exit;

/**
 * The plugin's subscription e-mails in WooCommerce's mailer (WooCommerce → Settings → Emails): one
 * WC_Email per change, sent when the service's account leaves these mails to the store. Their
 * templates are in the plugin's templates/emails/ and a theme overrides them in
 * yourtheme/recurring-payments-bridge/emails/.
 */
final class RPS_Emails {

	/** The subscription events the callback accepts, each with its e-mail class. */
	public const EVENTS = array( 'cancelled', 'paused', 'resumed', 'skipped', 'method_changed' );
	/** The theme folder that overrides the templates: wc_get_template's template path. */
	public const TEMPLATE_PATH = 'recurring-payments-bridge/';

	private const CLASSES = array(
		'cancelled'      => 'RPS_Email_Subscription_Cancelled',
		'paused'         => 'RPS_Email_Subscription_Paused',
		'resumed'        => 'RPS_Email_Subscription_Resumed',
		'skipped'        => 'RPS_Email_Subscription_Skipped',
		'method_changed' => 'RPS_Email_Payment_Method_Changed',
	);

	public static function register(): void {
		add_filter( 'woocommerce_email_classes', array( self::class, 'email_classes' ) );
		add_filter( 'woocommerce_template_directory', array( self::class, 'template_directory' ), 10, 2 );
	}

	/** The plugin's default templates. */
	public static function template_base(): string {
		return dirname( __DIR__, 2 ) . '/templates/';
	}

	/**
	 * The `woocommerce_email_classes` filter: WooCommerce makes each e-mail once, when its mailer starts.
	 *
	 * @param array<string, WC_Email> $emails
	 * @return array<string, WC_Email>
	 */
	public static function email_classes( array $emails ): array {
		require_once __DIR__ . '/class-rps-email-subscription.php';
		foreach ( self::CLASSES as $kind => $class ) {
			require_once __DIR__ . '/class-rps-email-' . str_replace( '_', '-', $kind ) . '.php';
			$emails[ $class ] = new $class();
		}
		return $emails;
	}

	/**
	 * The `woocommerce_template_directory` filter: the e-mail settings screen tells the shop owner to copy
	 * our templates to yourtheme/recurring-payments-bridge/, where wc_get_template looks for them.
	 */
	public static function template_directory( string $directory, string $template ): string {
		return str_starts_with( $template, 'emails/rps-' ) || str_starts_with( $template, 'emails/plain/rps-' ) ? rtrim( self::TEMPLATE_PATH, '/' ) : $directory;
	}

	/**
	 * Sends the e-mail of one change, if WooCommerce's mailer has it and the shop owner left it enabled.
	 *
	 * @param array<string, mixed> $subscription as the service answered it, with its customer
	 * @param array<string, mixed> $event        the callback's body
	 * @param list<string>         $others       names of the other subscriptions a change of payment method moved
	 */
	public static function send( string $kind, array $subscription, array $event, array $others = array() ): bool {
		$class  = self::CLASSES[ $kind ] ?? '';
		$emails = WC()->mailer()->get_emails();
		$email  = $emails[ $class ] ?? null;
		if ( ! $email instanceof RPS_Email_Subscription ) {
			return false;
		}
		return $email->trigger( $subscription, $event, $others );
	}
}
