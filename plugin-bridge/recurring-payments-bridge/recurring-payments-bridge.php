<?php
/**
 * Plugin Name:          Recurring Payments Bridge
 * Description:          Pay WooCommerce orders through the recurring payments service (Mollie), keep products and orders in sync, and let the service bill subscriptions.
 * Version:              0.1.0
 * Requires at least:    6.4
 * Tested up to:         6.8
 * Requires PHP:         8.1
 * Requires Plugins:     woocommerce
 * WC requires at least: 8.0
 * WC tested up to:      9.9
 * Author:               Recurring Payments Service contributors
 * License:              GPL-2.0-or-later
 * License URI:          https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:          recurring-payments-bridge
 * Domain Path:          /languages
 */

defined( 'ABSPATH' ) || exit;

const RPS_VERSION     = '0.1.0';
const RPS_PLUGIN_FILE = __FILE__;
const RPS_TEXT_DOMAIN = 'recurring-payments-bridge';

require_once __DIR__ . '/includes/class-rps-money.php';
require_once __DIR__ . '/includes/class-rps-settings.php';
require_once __DIR__ . '/includes/class-rps-api-error.php';
require_once __DIR__ . '/includes/class-rps-api-client.php';
require_once __DIR__ . '/includes/class-rps-signature.php';
require_once __DIR__ . '/includes/class-rps-callback.php';
require_once __DIR__ . '/includes/class-rps-refunds.php';
require_once __DIR__ . '/includes/class-rps-emails.php';
require_once __DIR__ . '/includes/class-rps-subscription-events.php';
require_once __DIR__ . '/includes/class-rps-wcs.php';
require_once __DIR__ . '/includes/class-rps-store-connector.php';
require_once __DIR__ . '/includes/class-rps-admin-page.php';
require_once __DIR__ . '/includes/class-rps-order-box.php';
require_once __DIR__ . '/includes/class-rps-subscriptions.php';
require_once __DIR__ . '/includes/class-rps-my-account.php';
require_once __DIR__ . '/includes/class-rps-admin-subscriptions.php';
require_once __DIR__ . '/includes/class-rps-dashboard-widget.php';
require_once __DIR__ . '/includes/class-rps-plugin-links.php';

// My Account's subscriptions page gets its rewrite rule on the next page load.
register_activation_hook( __FILE__, array( RPS_My_Account::class, 'activate' ) );

// Plugins → Installed Plugins: a "Settings" link next to Deactivate.
add_filter( 'plugin_action_links_' . plugin_basename( RPS_PLUGIN_FILE ), array( RPS_Plugin_Links::class, 'action_links' ) );
require_once __DIR__ . '/includes/class-rps-product-fields.php';
require_once __DIR__ . '/includes/class-rps-price-display.php';
require_once __DIR__ . '/includes/class-rps-cart-gateways.php';
require_once __DIR__ . '/includes/class-rps-block-prices.php';

// HPOS (custom order tables) and the Checkout block: declared before WooCommerce initialises.
add_action(
	'before_woocommerce_init',
	static function (): void {
		if ( class_exists( \Automattic\WooCommerce\Utilities\FeaturesUtil::class ) ) {
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'custom_order_tables', RPS_PLUGIN_FILE, true );
			\Automattic\WooCommerce\Utilities\FeaturesUtil::declare_compatibility( 'cart_checkout_blocks', RPS_PLUGIN_FILE, true );
		}
	}
);

add_action(
	'plugins_loaded',
	static function (): void {
		load_plugin_textdomain( RPS_TEXT_DOMAIN, false, dirname( plugin_basename( RPS_PLUGIN_FILE ) ) . '/languages' );
		if ( ! class_exists( 'WC_Payment_Gateway' ) ) {
			return; // WooCommerce is not active: nothing to add to.
		}
		require_once __DIR__ . '/includes/class-rps-gateway.php';
		require_once __DIR__ . '/includes/class-rps-return.php';
		add_filter(
			'woocommerce_payment_gateways',
			static function ( array $gateways ): array {
				$gateways[] = RPS_Gateway::class;
				return $gateways;
			}
		);
		// The service reports a payment's outcome here: /wc-api/rps_payment.
		add_action( 'woocommerce_api_' . RPS_Callback::ENDPOINT, array( RPS_Callback::class, 'handle_request' ) );
		// The service reports a subscription's change here: /wc-api/rps_subscription; its e-mails go through WooCommerce's mailer.
		add_action( 'woocommerce_api_' . RPS_Subscription_Events::ENDPOINT, array( RPS_Subscription_Events::class, 'handle_request' ) );
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
);

add_action(
	'woocommerce_blocks_loaded',
	static function (): void {
		RPS_Block_Prices::register_store_api_data(); // The recurring terms in the Cart and Checkout blocks.
		if ( ! class_exists( \Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType::class ) ) {
			return;
		}
		require_once __DIR__ . '/includes/class-rps-blocks-support.php';
		add_action(
			'woocommerce_blocks_payment_method_type_registration',
			static function ( \Automattic\WooCommerce\Blocks\Payments\PaymentMethodRegistry $registry ): void {
				$registry->register( new RPS_Blocks_Support() );
			}
		);
	}
);
