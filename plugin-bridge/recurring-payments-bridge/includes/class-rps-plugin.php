<?php
defined( 'ABSPATH' ) || exit;

use Automattic\WooCommerce\Blocks\Payments\PaymentMethodRegistry;

/**
 * The plugin's wiring in one place: which files it loads and when each part hooks into WordPress and
 * WooCommerce. The files are grouped by role under includes/, as WooCommerce groups its own: api/ (the
 * service's API and the connection to it), gateway/ (checkout, the payment callback, the buyer's
 * return, refunds), admin/, account/ (My Account), products/ (recurring products in the editor, the
 * prices and the cart), subscriptions/ and emails/. Each class adds its own hooks in register(); this
 * class only decides when that runs, so the main plugin file holds nothing but its header.
 */
final class RPS_Plugin {

	/** Classes that need no WooCommerce class to be defined: loaded with the plugin file. */
	private const FILES = array(
		'class-rps-money.php',
		'api/class-rps-settings.php',
		'api/class-rps-api-error.php',
		'api/class-rps-api-client.php',
		'api/class-rps-signature.php',
		'api/class-rps-store-connector.php',
		'gateway/class-rps-callback.php',
		'gateway/class-rps-refunds.php',
		'emails/class-rps-emails.php',
		'subscriptions/class-rps-subscriptions.php',
		'subscriptions/class-rps-subscription-events.php',
		'subscriptions/class-rps-wcs.php',
		'admin/class-rps-admin-page.php',
		'admin/class-rps-order-box.php',
		'admin/class-rps-admin-subscriptions.php',
		'admin/class-rps-dashboard-widget.php',
		'admin/class-rps-plugin-links.php',
		'account/class-rps-my-account.php',
		'products/class-rps-product-fields.php',
		'products/class-rps-price-display.php',
		'products/class-rps-cart-gateways.php',
		'products/class-rps-block-prices.php',
	);

	/** The gateway extends WC_Payment_Gateway: loaded on plugins_loaded, once WooCommerce is known to be active. */
	private const GATEWAY_FILES = array(
		'gateway/class-rps-gateway.php',
		'gateway/class-rps-return.php',
	);

	/** Extends WooCommerce Blocks' payment method type: loaded only when the blocks are there. */
	private const BLOCKS_FILE = 'gateway/class-rps-blocks-support.php';

	/** Called once, by the main plugin file, as WordPress loads it. */
	public static function load(): void {
		self::require_files( self::FILES );

		// My Account's subscriptions page gets its rewrite rule on the next page load.
		register_activation_hook( RPS_PLUGIN_FILE, array( RPS_My_Account::class, 'activate' ) );
		// Plugins → Installed Plugins: a "Settings" link next to Deactivate.
		add_filter( 'plugin_action_links_' . plugin_basename( RPS_PLUGIN_FILE ), array( RPS_Plugin_Links::class, 'action_links' ) );
		// HPOS (custom order tables) and the Checkout block: declared before WooCommerce initialises.
		add_action( 'before_woocommerce_init', array( self::class, 'declare_compatibility' ) );
		add_action( 'plugins_loaded', array( self::class, 'on_plugins_loaded' ) );
		add_action( 'woocommerce_blocks_loaded', array( self::class, 'on_blocks_loaded' ) );
	}

	/**
	 * The classes without their hooks, WooCommerce's gateway included: what the PHPUnit suite loads
	 * (over its stubs), so the tests follow the layout from this one list.
	 */
	public static function require_classes(): void {
		self::require_files( self::FILES );
		self::require_files( self::GATEWAY_FILES );
	}

	/** `before_woocommerce_init`. */
	public static function declare_compatibility(): void {
		if ( class_exists( \Automattic\WooCommerce\Utilities\FeaturesUtil::class ) ) {
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'custom_order_tables', RPS_PLUGIN_FILE, true );
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'cart_checkout_blocks', RPS_PLUGIN_FILE, true );
		}
	}

	/** `plugins_loaded`: every other plugin is loaded, so whether WooCommerce is active is known. */
	public static function on_plugins_loaded(): void {
		load_plugin_textdomain( RPS_TEXT_DOMAIN, false, dirname( plugin_basename( RPS_PLUGIN_FILE ) ) . '/languages' );
		if ( ! class_exists( 'WC_Payment_Gateway' ) ) {
			return; // WooCommerce is not active: nothing to add to.
		}
		self::require_files( self::GATEWAY_FILES );

		// The order of these calls is the order of same-priority callbacks on a shared hook
		// (template_redirect, admin_menu): keep it when adding a part.
		add_filter( 'woocommerce_payment_gateways', array( self::class, 'add_gateway' ) );
		// The service reports a payment's outcome here: /wc-api/rps_payment.
		add_action( 'woocommerce_api_' . RPS_Callback::ENDPOINT, array( RPS_Callback::class, 'handle_request' ) );
		// The service reports a subscription's change here: /wc-api/rps_subscription; its e-mails go through WooCommerce's mailer.
		add_action( 'woocommerce_api_' . RPS_Subscription_Events::ENDPOINT, array( RPS_Subscription_Events::class, 'handle_request' ) );
		// The refund button's claim on the order's refunds, before WooCommerce saves its refund record.
		add_action( 'woocommerce_create_refund', array( RPS_Refunds::class, 'claim_before_record' ), 10, 2 );
		RPS_Subscription_Events::register();
		RPS_Emails::register();
		// The buyer's return: the order is settled (or shown as being processed) before the page renders.
		RPS_Return::register();
		RPS_Admin_Page::register();
		RPS_Order_Box::register();
		RPS_My_Account::register();
		RPS_Admin_Subscriptions::register();
		RPS_Dashboard_Widget::register();
		// Recurring products (issue 23): the editor's section, the price's words, the cart's gateway and fees.
		RPS_Product_Fields::register();
		RPS_Price_Display::register();
		RPS_Cart_Gateways::register();
		RPS_Block_Prices::register();
		// WooCommerce Subscriptions active: our gateway bills its subscriptions (the extension makes no renewals).
		RPS_Wcs::register();
	}

	/**
	 * `woocommerce_payment_gateways`: WooCommerce makes the gateway from its class name.
	 *
	 * @param array<int|string, mixed> $gateways
	 * @return array<int|string, mixed>
	 */
	public static function add_gateway( array $gateways ): array {
		$gateways[] = RPS_Gateway::class;
		return $gateways;
	}

	/** `woocommerce_blocks_loaded`. */
	public static function on_blocks_loaded(): void {
		RPS_Block_Prices::register_store_api_data(); // The recurring terms in the Cart and Checkout blocks.
		if ( ! class_exists( \Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType::class ) ) {
			return;
		}
		require_once __DIR__ . '/' . self::BLOCKS_FILE;
		add_action( 'woocommerce_blocks_payment_method_type_registration', array( self::class, 'register_block_payment_method' ) );
	}

	/** `woocommerce_blocks_payment_method_type_registration`: the gateway in the Checkout block. */
	public static function register_block_payment_method( PaymentMethodRegistry $registry ): void {
		$registry->register( new RPS_Blocks_Support() );
	}

	/** @param list<string> $files paths under includes/ */
	private static function require_files( array $files ): void {
		foreach ( $files as $file ) {
			require_once __DIR__ . '/' . $file;
		}
	}
}
