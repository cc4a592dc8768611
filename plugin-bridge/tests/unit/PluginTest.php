<?php

require_once __DIR__ . '/StubTestCase.php';

/**
 * The plugin's wiring (RPS_Plugin): loading the main file, then WordPress's plugins_loaded and
 * WooCommerce's blocks_loaded, adds exactly the hooks, priorities and callbacks the plugin added when
 * its main file wired them itself, in the same order (same-priority callbacks on one hook run in the
 * order they were added). A hook added or dropped by a move of files shows here.
 */
final class PluginTest extends StubTestCase {

	private const ON_LOAD = array(
		'activate_recurring-payments-bridge/recurring-payments-bridge.php 10 1 RPS_My_Account::activate',
		'plugin_action_links_recurring-payments-bridge/recurring-payments-bridge.php 10 1 RPS_Plugin_Links::action_links',
		'before_woocommerce_init 10 1 RPS_Plugin::declare_compatibility',
		'plugins_loaded 10 1 RPS_Plugin::on_plugins_loaded',
		'woocommerce_blocks_loaded 10 1 RPS_Plugin::on_blocks_loaded',
	);

	private const ON_PLUGINS_LOADED = array(
		'load_plugin_textdomain recurring-payments-bridge recurring-payments-bridge/languages',
		'woocommerce_payment_gateways 10 1 RPS_Plugin::add_gateway',
		'woocommerce_api_rps_payment 10 1 RPS_Callback::handle_request',
		'woocommerce_api_rps_subscription 10 1 RPS_Subscription_Events::handle_request',
		'woocommerce_create_refund 10 2 RPS_Refunds::claim_before_record',
		'rps_prune_handled_events 10 1 RPS_Subscription_Events::prune',
		'woocommerce_email_classes 10 1 RPS_Emails::email_classes',
		'woocommerce_template_directory 10 2 RPS_Emails::template_directory',
		'template_redirect 5 1 RPS_Return::on_order_received',
		'woocommerce_order_get_status 10 2 RPS_Return::shown_status',
		'woocommerce_before_thankyou 10 1 RPS_Return::notice',
		'admin_menu 10 1 RPS_Admin_Page::add_menu',
		'admin_notices 10 1 RPS_Admin_Page::admin_notices',
		'admin_post_rps_save_settings 10 1 RPS_Admin_Page::save_settings',
		'wp_ajax_rps_test_connection 10 1 RPS_Admin_Page::ajax_test_connection',
		'wp_ajax_rps_connect_store 10 1 RPS_Admin_Page::ajax_connect_store',
		'wp_ajax_rps_start_sync 10 1 RPS_Admin_Page::ajax_start_sync',
		'wp_ajax_rps_sync_runs 10 1 RPS_Admin_Page::ajax_sync_runs',
		'add_meta_boxes 10 1 RPS_Order_Box::add',
		'woocommerce_get_query_vars 10 1 RPS_My_Account::query_vars',
		'woocommerce_account_menu_items 10 1 RPS_My_Account::menu_items',
		'woocommerce_endpoint_subscriptions_title 10 1 RPS_My_Account::title',
		'woocommerce_account_subscriptions_endpoint 10 1 RPS_My_Account::render',
		'template_redirect 10 1 RPS_My_Account::handle_request',
		'init 20 1 RPS_My_Account::flush_when_changed',
		'admin_menu 60 1 RPS_Admin_Subscriptions::menu',
		'admin_post_rps_subscription 10 1 RPS_Admin_Subscriptions::handle_request',
		'wp_dashboard_setup 10 1 RPS_Dashboard_Widget::add',
		'woocommerce_product_options_general_product_data 10 1 RPS_Product_Fields::render_simple',
		'woocommerce_process_product_meta 20 1 RPS_Product_Fields::save_simple',
		'woocommerce_product_after_variable_attributes 10 3 RPS_Product_Fields::render_variation',
		'woocommerce_save_product_variation 10 2 RPS_Product_Fields::save_variation',
		'woocommerce_checkout_create_order_line_item 10 3 RPS_Price_Display::remember_terms',
		'woocommerce_get_price_html 20 2 RPS_Price_Display::product_price_html',
		'woocommerce_cart_item_price 20 2 RPS_Price_Display::cart_item_price',
		'woocommerce_cart_item_subtotal 20 2 RPS_Price_Display::cart_item_subtotal',
		'woocommerce_order_formatted_line_subtotal 20 2 RPS_Price_Display::order_line_subtotal',
		'woocommerce_available_payment_gateways 100 1 RPS_Cart_Gateways::available_gateways',
		'woocommerce_cart_needs_payment 20 2 RPS_Cart_Gateways::cart_needs_payment',
		'woocommerce_order_needs_payment 20 3 RPS_Cart_Gateways::order_needs_payment',
		'woocommerce_cart_calculate_fees 10 1 RPS_Cart_Gateways::add_fees',
		'wp_enqueue_scripts 10 1 RPS_Block_Prices::enqueue_script',
	);

	public function test_the_main_file_and_plugins_loaded_add_the_same_hooks_in_the_same_order(): void {
		RPS_Stub_Hooks::$added = array();
		require_once dirname( __DIR__, 2 ) . '/recurring-payments-bridge/recurring-payments-bridge.php';
		$this->assertSame( self::ON_LOAD, RPS_Stub_Hooks::$added );

		RPS_Stub_Hooks::$added = array();
		RPS_Plugin::on_plugins_loaded();
		$this->assertSame( self::ON_PLUGINS_LOADED, RPS_Stub_Hooks::$added );
	}

	public function test_the_gateway_is_added_to_woocommerces_list_by_its_class_name(): void {
		$this->assertSame( array( 'WC_Gateway_Cheque', RPS_Gateway::class ), RPS_Plugin::add_gateway( array( 'WC_Gateway_Cheque' ) ) );
	}
}
