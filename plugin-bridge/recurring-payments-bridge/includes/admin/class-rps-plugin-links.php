<?php
defined( 'ABSPATH' ) || exit;

/**
 * The links under the plugin's name on Plugins → Installed Plugins: "Settings" first, to the page
 * where the service's address and token are entered (WooCommerce → Recurring payments), so a shop
 * owner who just activated the plugin finds where to connect it.
 */
final class RPS_Plugin_Links {

	/** The plugin's settings page. */
	public static function settings_url(): string {
		return admin_url( 'admin.php?page=' . RPS_Admin_Page::SLUG );
	}

	/**
	 * The `plugin_action_links_{basename}` filter.
	 *
	 * @param array<int|string, string> $links Deactivate and the others WordPress adds
	 * @return array<int|string, string>
	 */
	public static function action_links( array $links ): array {
		if ( ! current_user_can( 'manage_woocommerce' ) ) {
			return $links; // The page itself needs this capability: no link to a page that refuses.
		}
		$settings = sprintf( '<a href="%s">%s</a>', esc_url( self::settings_url() ), esc_html__( 'Settings', 'recurring-payments-bridge' ) );
		return array( 'settings' => $settings ) + $links;
	}
}
