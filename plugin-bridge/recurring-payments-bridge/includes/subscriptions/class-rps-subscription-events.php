<?php
defined( 'ABSPATH' ) || exit;

/**
 * `/wc-api/rps_subscription`: where the service tells the store of a subscription's change made
 * anywhere (its portal, My Account, the admin list, the API): cancelled, paused, resumed, skipped,
 * payment method changed. The call is only a hint: its signature is checked, the subscription and its
 * customer are read from the service (the call carries no e-mail address), and each event id is
 * handled once, so a replayed or retried call sends no second mail. The body's `mail` says who mails
 * the customer: `store` (this plugin, through WooCommerce's mailer) or `service` (nothing is sent here).
 */
final class RPS_Subscription_Events {

	public const ENDPOINT = 'rps_subscription';
	/** Option name prefix: one row per handled event id (add_option fails when it exists), its value the time. */
	public const SEEN_PREFIX = 'rps_event_';
	/**
	 * How long a handled event id is kept: far longer than the service goes on delivering one (its
	 * outbox gives up after days), so a late retry still finds it; then the daily prune removes it.
	 */
	public const KEEP_SECONDS = 30 * DAY_IN_SECONDS;
	/** The daily WP-Cron event that prunes them. */
	public const PRUNE_HOOK = 'rps_prune_handled_events';
	/** The names of other subscriptions a change of payment method names, at most. */
	private const MAX_NAMED = 10;

	/**
	 * The address the plugin gives the service when it connects the store. The query form works with
	 * any permalink setting and whether or not the rewrite rules were flushed (the real store under
	 * test answers 404 to /wc-api/…/ until they are).
	 */
	public static function url(): string {
		return add_query_arg( array( 'wc-api' => self::ENDPOINT ), home_url( '/' ) );
	}

	/** WooCommerce's `woocommerce_api_rps_subscription` action. */
	public static function handle_request(): void {
		$raw_body  = (string) file_get_contents( 'php://input' );
		$signature = isset( $_SERVER['HTTP_X_SIGNATURE'] ) ? (string) wp_unslash( $_SERVER['HTTP_X_SIGNATURE'] ) : '';
		[ $status, $result ] = ( new self( RPS_Api_Client::from_settings(), (string) RPS_Settings::get( 'event_signing_secret' ) ) )->process( $raw_body, $signature );
		wp_send_json( array( 'result' => $result ), $status );
	}

	public function __construct( private readonly RPS_Api_Client $api, private readonly string $secret ) {}

	/** The daily prune: scheduled once, run by WP-Cron. */
	public static function register(): void {
		add_action( self::PRUNE_HOOK, array( self::class, 'prune' ) );
		if ( ! wp_next_scheduled( self::PRUNE_HOOK ) ) {
			wp_schedule_event( time() + HOUR_IN_SECONDS, 'daily', self::PRUNE_HOOK );
		}
	}

	/**
	 * Forgets the event ids handled more than KEEP_SECONDS ago (one row each would otherwise pile up
	 * for ever); with $everything, all of them (the plugin is being deleted).
	 *
	 * @return int how many were removed
	 */
	public static function prune( ?int $now = null, bool $everything = false ): int {
		global $wpdb;
		if ( ! isset( $wpdb ) ) {
			return 0;
		}
		$before = $everything ? PHP_INT_MAX : ( $now ?? time() ) - self::KEEP_SECONDS;
		// Not autoloaded and never cached by name: a direct delete leaves no stale copy behind.
		return (int) $wpdb->query(
			$wpdb->prepare(
				"DELETE FROM {$wpdb->options} WHERE option_name LIKE %s AND CAST(option_value AS UNSIGNED) < %d",
				$wpdb->esc_like( self::SEEN_PREFIX ) . '%',
				$before
			)
		);
	}

	/**
	 * @return array{0: int, 1: string} the HTTP status to answer and what was done
	 */
	public function process( string $raw_body, string $signature, ?int $now = null ): array {
		// Unlike a payment, a subscription event is acted on as told (it may mail): no secret, no trust.
		if ( ! RPS_Signature::is_valid( $raw_body, $signature, $this->secret, $now ) ) {
			RPS_Callback::log( 'warning', 'Refused a subscription callback: bad or missing signature' );
			return array( 401, 'bad signature' );
		}
		$event = json_decode( $raw_body, true );
		$name  = is_array( $event ) && is_string( $event['event'] ?? null ) ? $event['event'] : '';
		$id    = is_array( $event ) && is_string( $event['id'] ?? null ) ? $event['id'] : '';
		$evt   = is_array( $event ) && is_string( $event['event_id'] ?? null ) ? $event['event_id'] : '';
		$kind  = str_starts_with( $name, 'subscription.' ) ? substr( $name, strlen( 'subscription.' ) ) : '';
		if ( ! in_array( $kind, RPS_Emails::EVENTS, true ) || ! preg_match( '/^sub_[A-Za-z0-9]{1,64}$/', $id ) || ! preg_match( '/^evt_[A-Za-z0-9]{1,64}$/', $evt ) ) {
			return array( 400, 'not a subscription event' );
		}
		$seen = self::SEEN_PREFIX . $evt;
		if ( false !== get_option( $seen, false ) ) {
			return array( 200, 'already handled' );
		}

		try {
			$subscription = $this->api->get( '/api/v2/subscriptions/' . rawurlencode( $id ) );
			$others       = $this->other_names( $event, $id );
		} catch ( RPS_Api_Error $error ) {
			RPS_Callback::log( 'error', sprintf( 'Subscription %s of event %s could not be read: %s', $id, $evt, $error->detail() ) );
			return array( 503, 'service unavailable' ); // The service sends the event again.
		}
		// Claimed only now, after the reads that may fail: of two deliveries at once, one goes on.
		if ( ! add_option( $seen, time(), '', false ) ) {
			return array( 200, 'already handled' );
		}
		/**
		 * A verified change of a subscription, once per event: for code that mirrors it elsewhere.
		 *
		 * @param array<string, mixed> $event        the callback's body
		 * @param array<string, mixed> $subscription as the service answered it
		 */
		do_action( 'rps_subscription_event', $event, $subscription );
		if ( 'store' !== ( $event['mail'] ?? '' ) ) {
			return array( 200, 'the service mails' );
		}
		return array( 200, RPS_Emails::send( $kind, $subscription, $event, $others ) ? 'mailed' : 'not mailed' );
	}

	/**
	 * The names of the other subscriptions a change of payment method moved.
	 *
	 * @param array<string, mixed> $event
	 * @return list<string>
	 */
	private function other_names( array $event, string $first ): array {
		$ids   = is_array( $event['subscription_ids'] ?? null ) ? $event['subscription_ids'] : array();
		$names = array();
		foreach ( array_slice( array_values( array_diff( array_filter( $ids, 'is_string' ), array( $first ) ) ), 0, self::MAX_NAMED ) as $other ) {
			if ( preg_match( '/^sub_[A-Za-z0-9]{1,64}$/', $other ) ) {
				$names[] = (string) ( $this->api->get( '/api/v2/subscriptions/' . rawurlencode( $other ) )['name'] ?? '' );
			}
		}
		return array_values( array_filter( $names ) );
	}
}
