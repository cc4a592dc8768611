<?php
/** Loads the stubs, then the plugin's classes (not the main file: it only registers hooks). */

require_once __DIR__ . '/stubs/state.php';
require_once __DIR__ . '/stubs/wordpress.php';
require_once __DIR__ . '/stubs/woocommerce.php';
require_once __DIR__ . '/stubs/subscriptions.php';
require_once __DIR__ . '/stubs/emails.php';
require_once __DIR__ . '/stubs/wcs.php';

$includes = dirname( __DIR__ ) . '/recurring-payments-bridge/includes/';
foreach ( array( 'money', 'settings', 'api-error', 'api-client', 'signature', 'callback', 'refunds', 'gateway', 'store-connector', 'order-box', 'return', 'admin-page', 'subscriptions', 'my-account', 'admin-subscriptions', 'dashboard-widget', 'plugin-links', 'emails', 'subscription-events', 'product-fields', 'price-display', 'cart-gateways', 'block-prices', 'wcs' ) as $name ) {
	require_once $includes . 'class-rps-' . $name . '.php';
}
