<?php
/**
 * WooCommerce's mailer as far as the plugin's subscription e-mails use it: WC_Email with its settings
 * defaults, wc_get_template_html rendering the plugin's templates (or a theme's copy), and the mails
 * "sent" recorded in RPS_Stub_Mailer::$sent. Functions are guarded: other stubs may define them too.
 */

final class RPS_Stub_Mailer {
	/** @var array<string, WC_Email> what the woocommerce_email_classes filter gave */
	public static array $emails = array();
	/** @var list<array{to: string, subject: string, message: string, headers: string}> */
	public static array $sent = array();
	/** @var list<string> actions run (do_action), by name */
	public static array $actions = array();
	/** @var string a theme folder wc_get_template_html looks in first ('' for none) */
	public static string $theme_dir = '';

	public static function reset(): void {
		self::$emails    = array();
		self::$sent      = array();
		self::$theme_dir = '';
		self::$actions   = array();
	}

	/** @return array<string, WC_Email> */
	public function get_emails(): array {
		return self::$emails;
	}
}

class WC_Email {
	public string $id             = '';
	public string $title          = '';
	public string $description    = '';
	public bool $customer_email   = false;
	public ?string $template_base = null;
	public string $template_html  = '';
	public string $template_plain = '';
	public string $recipient      = '';
	/** @var array<string, string> */
	public array $placeholders = array();
	/** @var array<string, string> the e-mail's settings, as WooCommerce → Settings → Emails stores them */
	public array $settings = array();

	public function __construct() {
		$this->placeholders = array_merge( array( '{site_title}' => 'Koffie & Co' ), $this->placeholders );
		$stored             = get_option( 'woocommerce_' . $this->id . '_settings', array() );
		$this->settings     = is_array( $stored ) ? $stored : array();
	}
	public function is_enabled(): bool {
		return 'no' !== ( $this->settings['enabled'] ?? 'yes' );
	}
	public function get_recipient(): string {
		return $this->recipient;
	}
	public function format_string( string $text ): string {
		return str_replace( array_keys( $this->placeholders ), array_values( $this->placeholders ), $text );
	}
	public function get_subject(): string {
		return $this->format_string( $this->settings['subject'] ?? $this->get_default_subject() );
	}
	public function get_heading(): string {
		return $this->format_string( $this->settings['heading'] ?? $this->get_default_heading() );
	}
	public function get_default_subject(): string {
		return '';
	}
	public function get_default_heading(): string {
		return '';
	}
	public function get_additional_content(): string {
		return $this->format_string( $this->settings['additional_content'] ?? '' );
	}
	public function get_email_type(): string {
		return $this->settings['email_type'] ?? 'html';
	}
	public function get_content(): string {
		return 'plain' === $this->get_email_type() ? $this->get_content_plain() : $this->get_content_html();
	}
	public function get_content_html(): string {
		return '';
	}
	public function get_content_plain(): string {
		return '';
	}
	public function get_headers(): string {
		return 'Content-Type: ' . ( 'plain' === $this->get_email_type() ? 'text/plain' : 'text/html' ) . "\r\n";
	}
	/** @return list<string> */
	public function get_attachments(): array {
		return array();
	}
	public function setup_locale(): void {}
	public function restore_locale(): void {}
	/** @param list<string> $attachments */
	public function send( string $to, string $subject, string $message, string $headers, array $attachments ): bool {
		RPS_Stub_Mailer::$sent[] = array( 'to' => $to, 'subject' => $subject, 'message' => $message, 'headers' => $headers );
		return true;
	}
}

if ( ! function_exists( 'wc_get_template_html' ) ) {
	/** @param array<string, mixed> $args */
	function wc_get_template_html( string $template_name, array $args = array(), string $template_path = '', string $default_path = '' ): string {
		$theme = '' !== RPS_Stub_Mailer::$theme_dir ? RPS_Stub_Mailer::$theme_dir . '/' . $template_path . $template_name : '';
		$file  = '' !== $theme && is_file( $theme ) ? $theme : $default_path . $template_name;
		return ( static function () use ( $file, $args ): string {
			extract( $args ); // phpcs:ignore WordPress.PHP.DontExtract -- as wc_get_template does
			ob_start();
			include $file;
			return (string) ob_get_clean();
		} )();
	}
}
if ( ! function_exists( 'do_action' ) ) {
	function do_action( string $hook, mixed ...$args ): void {
		RPS_Stub_Mailer::$actions[] = $hook;
	}
}
if ( ! function_exists( 'apply_filters' ) ) {
	function apply_filters( string $hook, mixed $value, mixed ...$args ): mixed {
		foreach ( RPS_Stub_Filters::$callbacks[ $hook ] ?? array() as [ $callback, $accepted ] ) {
			$value = $callback( ...array_slice( array( $value, ...$args ), 0, $accepted ) );
		}
		return $value;
	}
}
if ( ! function_exists( 'wpautop' ) ) {
	function wpautop( string $text ): string {
		return '<p>' . $text . '</p>';
	}
}
if ( ! function_exists( 'wptexturize' ) ) {
	function wptexturize( string $text ): string {
		return $text;
	}
}
if ( ! function_exists( 'wp_kses_post' ) ) {
	function wp_kses_post( string $text ): string {
		return $text;
	}
}
if ( ! function_exists( 'wp_strip_all_tags' ) ) {
	function wp_strip_all_tags( string $text ): string {
		return strip_tags( $text );
	}
}
if ( ! function_exists( 'wc_date_format' ) ) {
	function wc_date_format(): string {
		return 'j F Y';
	}
}
if ( ! function_exists( 'date_i18n' ) ) {
	function date_i18n( string $format, int $timestamp ): string {
		return gmdate( $format, $timestamp );
	}
}
