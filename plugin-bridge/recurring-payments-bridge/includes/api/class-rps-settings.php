<?php
defined( 'ABSPATH' ) || exit;

/**
 * The connection to the service, kept in one option: its address, the API token (never printed back
 * in full), the secret that signs its events and the state of the store connection.
 */
final class RPS_Settings {

	public const OPTION            = 'rps_connection';
	public const RUNS_OPTION       = 'rps_sync_runs';
	public const METHODS_TRANSIENT = 'rps_methods';
	/** Set for a minute after the methods could not be read: the checkout does not ask again meanwhile. */
	public const METHODS_FAILED_TRANSIENT = 'rps_methods_failed';
	/** The same two for a cart with a subscription: the methods that can create a mandate. */
	public const FIRST_METHODS_TRANSIENT        = 'rps_methods_first';
	public const FIRST_METHODS_FAILED_TRANSIENT = 'rps_methods_first_failed';
	/** Everything the plugin stores; uninstall removes all of it. */
	public const OPTIONS = array( self::OPTION, self::RUNS_OPTION, 'woocommerce_rps_settings' );
	/** Cached answers; uninstall removes them too. */
	public const TRANSIENTS = array( self::METHODS_TRANSIENT, self::METHODS_FAILED_TRANSIENT, self::FIRST_METHODS_TRANSIENT, self::FIRST_METHODS_FAILED_TRANSIENT, 'rps_unreachable', 'rps_settings_notice' );

	private const DEFAULTS = array(
		'service_url'          => '',
		'api_token'            => '',
		'event_signing_secret' => '',
		'store_connected'      => 'no',
		'rest_key_id'          => 0,
		// 'yes' once the service said the store is not connected (after `cli shops disconnect`): an admin notice until connected again.
		'connection_lost'      => 'no',
	);

	/** @return array<string, mixed> */
	public static function all(): array {
		$stored = get_option( self::OPTION, array() );
		return array_merge( self::DEFAULTS, is_array( $stored ) ? array_intersect_key( $stored, self::DEFAULTS ) : array() );
	}

	public static function get( string $key ): mixed {
		return self::all()[ $key ] ?? null;
	}

	/** @param array<string, mixed> $changes */
	public static function update( array $changes ): void {
		update_option( self::OPTION, array_merge( self::all(), array_intersect_key( $changes, self::DEFAULTS ) ), false );
	}

	/** The service says this account has no connected store: checkout sends plain payments from now on. */
	public static function connection_lost(): void {
		if ( 'yes' === self::get( 'store_connected' ) ) {
			self::update(
				array(
					'store_connected' => 'no',
					'connection_lost' => 'yes',
				)
			);
		}
	}

	public static function is_configured(): bool {
		return '' !== self::get( 'service_url' ) && '' !== self::get( 'api_token' );
	}

	/** What the token field shows: its last four characters only. */
	public static function masked_token( string $token ): string {
		return '' === $token ? '' : str_repeat( '•', 8 ) . substr( $token, -4 );
	}

	/**
	 * Cleans what the settings form posted. An empty token field (or the mask shown in it) keeps the
	 * stored token; the secret and the connection state are never taken from the form. A changed
	 * service address forgets the store connection made with the old one.
	 *
	 * @param array<string, mixed> $input   what the form posted
	 * @param array<string, mixed> $current what is stored
	 * @return array{0: array<string, mixed>, 1: list<string>} the settings to store, and error messages
	 */
	public static function sanitize( array $input, array $current ): array {
		$current = array_merge( self::DEFAULTS, $current );
		$errors  = array();
		$clean   = $current;

		$url = trim( sanitize_text_field( wp_unslash( (string) ( $input['service_url'] ?? '' ) ) ) );
		$url = rtrim( $url, '/' );
		if ( '' === $url ) {
			$clean['service_url'] = '';
		} elseif ( ! preg_match( '#^https?://[a-z0-9.\-\[\]:]+(/[^\s?\#]*)?$#i', $url ) || esc_url_raw( $url ) !== $url ) {
			$errors[] = __( 'The service address must be an http:// or https:// address, such as https://payments.example.com.', 'recurring-payments-bridge' );
		} else {
			$clean['service_url'] = $url;
		}

		$token = trim( (string) wp_unslash( (string) ( $input['api_token'] ?? '' ) ) );
		if ( '' !== $token && $token !== self::masked_token( (string) $current['api_token'] ) ) {
			if ( ! preg_match( '/^[\x21-\x7e]{8,255}$/', $token ) ) {
				$errors[] = __( 'The API token is not valid: copy it again from `cli tokens create`.', 'recurring-payments-bridge' );
			} else {
				$clean['api_token'] = $token;
			}
		}

		if ( $clean['service_url'] !== $current['service_url'] || $clean['api_token'] !== $current['api_token'] ) {
			$clean['store_connected']      = 'no';
			$clean['connection_lost']      = 'no';
			$clean['event_signing_secret'] = '';
		}
		return array( $clean, $errors );
	}
}
