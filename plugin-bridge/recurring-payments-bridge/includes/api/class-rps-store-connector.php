<?php
defined( 'ABSPATH' ) || exit;

/**
 * "Connect this store": makes a WooCommerce REST key for the service (as WooCommerce's own key screen
 * does) and hands it to `POST /api/v2/shop`, so the admin never copies a secret by hand. The key of an
 * earlier connection is revoked once the new one works; a key the service refused is removed at once.
 */
final class RPS_Store_Connector {

	private const KEY_DESCRIPTION = 'Recurring payments service';

	public function __construct( private readonly RPS_Api_Client $api ) {}

	/** @return array<string, mixed> the service's answer (the connection, without secrets) */
	public function connect(): array {
		global $wpdb;
		$consumer_key    = 'ck_' . wc_rand_hash();
		$consumer_secret = 'cs_' . wc_rand_hash();
		$wpdb->insert(
			$wpdb->prefix . 'woocommerce_api_keys',
			array(
				'user_id'         => get_current_user_id(),
				'description'     => self::KEY_DESCRIPTION,
				'permissions'     => 'read_write',
				'consumer_key'    => wc_api_hash( $consumer_key ),
				'consumer_secret' => $consumer_secret,
				'truncated_key'   => substr( $consumer_key, -7 ),
			),
			array( '%d', '%s', '%s', '%s', '%s', '%s' )
		);
		$key_id = (int) $wpdb->insert_id;

		try {
			$shop = $this->api->post(
				'/api/v2/shop',
				array(
					'url'             => home_url(),
					'consumer_key'    => $consumer_key,
					'consumer_secret' => $consumer_secret,
					// Where the service reports subscription changes (cancelled, paused…): the plugin's e-mails.
					'callback_url'    => RPS_Subscription_Events::url(),
				)
			);
		} catch ( RPS_Api_Error $error ) {
			self::revoke_key( $key_id );
			throw $error;
		}
		$earlier = (int) RPS_Settings::get( 'rest_key_id' );
		RPS_Settings::update(
			array(
				'store_connected'      => 'yes',
				'connection_lost'      => 'no',
				'rest_key_id'          => $key_id,
				'event_signing_secret' => (string) ( $shop['event_signing_secret'] ?? '' ),
			)
		);
		if ( $earlier > 0 && $earlier !== $key_id ) {
			self::revoke_key( $earlier );
		}
		unset( $shop['event_signing_secret'] );
		return $shop;
	}

	/**
	 * Uninstall: disconnects the store at the service when this plugin connected it (its REST key is
	 * about to be revoked, so the connection could not work any more); the service then removes its
	 * webhooks from the store. A store that is no longer connected (404) is fine; a service that does
	 * not answer does not stop the uninstall: `cli shops disconnect` does the same later.
	 *
	 * @return string what happened: disconnected, not connected, failed or skipped
	 */
	public static function disconnect_on_uninstall( RPS_Api_Client $api ): string {
		if ( ! RPS_Settings::is_configured() || ( 'yes' !== RPS_Settings::get( 'store_connected' ) && (int) RPS_Settings::get( 'rest_key_id' ) <= 0 ) ) {
			return 'skipped';
		}
		try {
			$api->delete( '/api/v2/shop' );
			return 'disconnected';
		} catch ( RPS_Api_Error $error ) {
			return 404 === $error->status || RPS_Api_Client::NOT_CONNECTED === $error->error_code ? 'not connected' : 'failed';
		}
	}

	public static function revoke_key( int $key_id ): void {
		global $wpdb;
		if ( $key_id > 0 && isset( $wpdb ) ) {
			$wpdb->delete( $wpdb->prefix . 'woocommerce_api_keys', array( 'key_id' => $key_id ), array( '%d' ) );
		}
	}
}
