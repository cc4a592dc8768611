<?php
/**
 * Deleting the plugin: a store the plugin connected is disconnected at the service first
 * (`DELETE /api/v2/shop`, which removes the service's webhooks from the store), then the WooCommerce
 * REST key it created for the service is revoked, and what it stored in WordPress (its options and
 * cached answers) removed. Orders keep their notes and meta: they are the shop's records.
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

require_once __DIR__ . '/includes/api/class-rps-settings.php';
require_once __DIR__ . '/includes/api/class-rps-api-error.php';
require_once __DIR__ . '/includes/api/class-rps-api-client.php';
require_once __DIR__ . '/includes/api/class-rps-store-connector.php';
require_once __DIR__ . '/includes/subscriptions/class-rps-subscription-events.php';

delete_transient( RPS_Api_Client::UNREACHABLE_TRANSIENT ); // Asked once more whatever a page found a minute ago; 3 s at most.
RPS_Store_Connector::disconnect_on_uninstall( RPS_Api_Client::from_settings()->quick() );
RPS_Store_Connector::revoke_key( (int) RPS_Settings::get( 'rest_key_id' ) );
foreach ( RPS_Settings::OPTIONS as $option ) {
	delete_option( $option );
}
foreach ( RPS_Settings::TRANSIENTS as $transient ) {
	delete_transient( $transient );
}
// My Account's page, the portal settings and the dashboard's summary (names of RPS_My_Account, RPS_Subscriptions, RPS_Dashboard_Widget).
delete_option( 'rps_account_endpoint' );
delete_transient( 'rps_portal' );
delete_transient( 'rps_subscription_summary' );
// The subscription callbacks' handled event ids, and their daily prune.
RPS_Subscription_Events::prune( null, true );
wp_clear_scheduled_hook( RPS_Subscription_Events::PRUNE_HOOK );
