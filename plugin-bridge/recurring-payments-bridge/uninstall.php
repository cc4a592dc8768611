<?php
/**
 * Removes what the plugin stored in WordPress: its options and its cached method list. The
 * WooCommerce REST key it created for the service is revoked too, so no key is left behind.
 * Orders keep their notes and meta: they are the shop's records.
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

require_once __DIR__ . '/includes/class-rps-settings.php';
require_once __DIR__ . '/includes/class-rps-store-connector.php';

RPS_Store_Connector::revoke_key( (int) RPS_Settings::get( 'rest_key_id' ) );
foreach ( RPS_Settings::OPTIONS as $option ) {
	delete_option( $option );
}
delete_transient( RPS_Settings::METHODS_TRANSIENT );
