<?php
/**
 * Hand-written stand-ins for the WordPress and WooCommerce functions the plugin uses. Their state
 * lives in one array; the end-to-end router keeps it in a JSON file between requests.
 */

final class RPS_Stub_State {

	/** @var array<string, mixed> */
	public static array $options = array();
	/** @var array<string, mixed> */
	public static array $transients = array();
	/** @var array<int, array<string, mixed>> order id => the order's fields */
	public static array $orders = array();
	/** @var list<array{0: string, 1: string}> notices shown to the buyer: [message, type] */
	public static array $notices = array();
	/** @var list<array{0: string, 1: string}> WooCommerce log lines: [level, message] */
	public static array $logs = array();
	/** @var list<array<string, mixed>> requests the plugin made: url and args */
	public static array $requests = array();
	/** @var list<array<string, mixed>|WP_Error|Closure> answers for wp_remote_request, in order; empty: real HTTP */
	public static array $responses = array();
	/** @var array<string, int> transient name => the expiration it was set with, in seconds */
	public static array $transient_expirations = array();
	/** @var array<string, mixed> WordPress query variables of the page being rendered */
	public static array $query_vars = array();
	public static bool $order_received_page = false;
	public static string $home_url = 'https://shop.example';
	public static int $user_id = 1;
	/** @var list<string> capabilities the current user lacks (all others are granted) */
	public static array $denied_capabilities = array();
	/** @var array<int, array<string, mixed>> user id => user meta */
	public static array $user_meta = array();
	/** @var array<int, WC_Product> product id => product (wc_get_product) */
	public static array $products = array();
	/** @var array<string, string> English text => its translation (__, _n): localization in tests */
	public static array $translations = array();
	/** @var list<string> WC_Admin_Meta_Boxes::add_error texts */
	public static array $admin_errors = array();
	public static bool $user_can = true;
	public static bool $is_admin = false;
	public static ?WC_Cart $cart = null;
	/** @var array<string, WC_Payment_Gateway> WC()->payment_gateways()->payment_gateways() */
	public static array $gateways = array();

	public static function reset(): void {
		self::$options    = array();
		self::$transients = array();
		self::$orders     = array();
		self::$notices    = array();
		self::$logs       = array();
		self::$requests   = array();
		self::$responses  = array();
		self::$transient_expirations = array();
		self::$query_vars            = array();
		self::$order_received_page   = false;
		self::$denied_capabilities   = array();
		self::$user_meta             = array();
		self::$user_id               = 1;
		self::$products              = array();
		self::$translations          = array();
		self::$admin_errors          = array();
		self::$user_can              = true;
		self::$is_admin              = false;
		self::$cart                  = null;
		self::$gateways              = array();
	}

	public static function load( string $file ): void {
		$state = is_file( $file ) ? json_decode( (string) file_get_contents( $file ), true ) : null;
		self::reset();
		if ( is_array( $state ) ) {
			foreach ( array( 'options', 'transients', 'orders', 'notices', 'logs' ) as $field ) {
				$loaded = $state[ $field ] ?? array();
				self::${$field} = is_array( $loaded ) ? $loaded : array();
			}
			self::$home_url = (string) ( $state['home_url'] ?? self::$home_url );
		}
	}

	public static function save( string $file ): void {
		$fp = fopen( $file, 'c+' );
		flock( $fp, LOCK_EX );
		ftruncate( $fp, 0 );
		fwrite(
			$fp,
			(string) json_encode(
				array(
					'options'    => self::$options,
					'transients' => self::$transients,
					'orders'     => self::$orders,
					'notices'    => self::$notices,
					'logs'       => self::$logs,
					'home_url'   => self::$home_url,
				),
				JSON_PRETTY_PRINT
			)
		);
		flock( $fp, LOCK_UN );
		fclose( $fp );
	}
}
