<?php
defined( 'ABSPATH' ) || exit;

/**
 * `/wc-api/rps_payment?order_id=…&key=…`: where the service reports a payment's new status. The call
 * is only a hint: its signature is checked first, and the status acted upon is the one the service
 * answers to `GET /api/v2/payments/{id}`. Paid completes the order once, however often and in
 * whatever order the events come; a late failure after paid changes nothing.
 */
final class RPS_Callback {

	public const ENDPOINT = 'rps_payment';
	/** Order meta: every payment made for the order (a buyer may pay a second time after a failure). */
	public const PAYMENT_IDS_META = '_rps_payment_ids';
	/** Order meta: the payment of the buyer's current attempt (the gateway sets it). */
	public const CURRENT_PAYMENT_META = '_rps_payment_id';
	/** A claim older than this was left by a request that died; another may take it over. */
	private const CLAIM_SECONDS = 60;

	/** The address the service calls for this order. */
	public static function url_for( WC_Order $order ): string {
		return add_query_arg(
			array(
				'order_id' => $order->get_id(),
				'key'      => $order->get_order_key(),
			),
			WC()->api_request_url( self::ENDPOINT )
		);
	}

	/** WooCommerce's `woocommerce_api_rps_payment` action. */
	public static function handle_request(): void {
		$raw_body  = (string) file_get_contents( 'php://input' );
		$signature = isset( $_SERVER['HTTP_X_SIGNATURE'] ) ? (string) wp_unslash( $_SERVER['HTTP_X_SIGNATURE'] ) : '';
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- the signature authenticates the call.
		$order_id = isset( $_GET['order_id'] ) ? absint( $_GET['order_id'] ) : 0;
		$key      = isset( $_GET['key'] ) ? sanitize_text_field( wp_unslash( $_GET['key'] ) ) : '';
		// phpcs:enable
		[ $status, $result ] = ( new self( RPS_Api_Client::from_settings(), (string) RPS_Settings::get( 'event_signing_secret' ) ) )->process( $raw_body, $signature, $order_id, $key );
		wp_send_json( array( 'result' => $result ), $status );
	}

	public function __construct( private readonly RPS_Api_Client $api, private readonly string $secret ) {}

	/**
	 * @return array{0: int, 1: string} the HTTP status to answer and what was done
	 */
	public function process( string $raw_body, string $signature, int $order_id, string $key ): array {
		// Without a secret (the store was not connected from the plugin) the fetch below is the only check.
		if ( '' !== $this->secret && ! RPS_Signature::is_valid( $raw_body, $signature, $this->secret ) ) {
			self::log( 'warning', sprintf( 'Refused a payment callback for order %d: bad or missing signature', $order_id ) );
			return array( 401, 'bad signature' );
		}
		$event      = json_decode( $raw_body, true );
		$payment_id = is_array( $event ) && is_string( $event['id'] ?? null ) ? $event['id'] : '';
		if ( ! preg_match( '/^pay_[A-Za-z0-9]{1,64}$/', $payment_id ) ) {
			return array( 400, 'no payment id' );
		}
		$order = wc_get_order( $order_id );
		// Unknown orders and other payments answer 200: the service stops retrying what is not ours.
		if ( ! $order instanceof WC_Order || ! hash_equals( $order->get_order_key(), $key ) ) {
			return array( 200, 'unknown order' );
		}
		if ( ! in_array( $payment_id, self::payment_ids( $order ), true ) ) {
			return array( 200, 'not a payment of this order' );
		}
		if ( str_starts_with( (string) ( $event['event'] ?? '' ), 'refund.' ) ) {
			return ( new RPS_Refunds( $this->api ) )->record_missing( $order, $payment_id );
		}

		try {
			$payment = $this->api->get( '/api/v2/payments/' . rawurlencode( $payment_id ) );
		} catch ( RPS_Api_Error $error ) {
			self::log( 'error', sprintf( 'Payment %s of order %d could not be read: %s', $payment_id, $order_id, $error->detail() ) );
			return array( 503, 'service unavailable' ); // The service retries the event.
		}
		$status = (string) ( $payment['status'] ?? '' );
		if ( 'paid' === $status ) {
			return array( 200, self::complete( $order, $payment ) );
		}
		if ( in_array( $status, array( 'failed', 'expired', 'canceled' ), true ) ) {
			return array( 200, $this->not_paid( $order, $payment_id, $status ) );
		}
		return array( 200, 'status ' . $status );
	}

	/**
	 * The order as stored now, not as this request's object cache keeps it: the callback and the
	 * buyer's return run in separate requests and change it under each other.
	 */
	public static function fresh_order( int $order_id ): WC_Order|false {
		if ( function_exists( 'wc_get_container' ) && class_exists( \Automattic\WooCommerce\Caches\OrderCache::class ) ) {
			wc_get_container()->get( \Automattic\WooCommerce\Caches\OrderCache::class )->remove( $order_id );
		}
		if ( function_exists( 'clean_post_cache' ) ) {
			clean_post_cache( $order_id ); // Orders kept as posts (HPOS off).
		}
		return wc_get_order( $order_id );
	}

	/** @return list<string> */
	public static function payment_ids( WC_Order $order ): array {
		$ids = $order->get_meta( self::PAYMENT_IDS_META );
		return is_array( $ids ) ? array_values( array_filter( $ids, 'is_string' ) ) : array();
	}

	/**
	 * Completes the order of a payment the service says is paid, once: the callback and the buyer's
	 * return (RPS_Return) both come here, possibly at the same moment.
	 *
	 * @param array<string, mixed> $payment as the service answered it
	 */
	public static function complete( WC_Order $order, array $payment ): string {
		if ( $order->is_paid() ) {
			return 'already paid';
		}
		// A row with a unique name, not a lock: of two requests at the same moment, one completes.
		$claim = 'rps_completing_' . $order->get_id();
		if ( ! add_option( $claim, time(), '', false ) ) {
			if ( time() - (int) get_option( $claim, 0 ) < self::CLAIM_SECONDS ) {
				return 'being completed';
			}
			update_option( $claim, time(), false );
		}
		// Read again under the claim: the other request may have completed it since this one loaded it.
		$fresh = self::fresh_order( $order->get_id() );
		if ( $fresh instanceof WC_Order && $fresh->is_paid() ) {
			delete_option( $claim );
			return 'already paid';
		}
		$order       = $fresh instanceof WC_Order ? $fresh : $order;
		$provider_id = (string) ( $payment['provider_payment_id'] ?? '' );
		$order->payment_complete( $provider_id );
		/* translators: 1: the service's payment id, 2: the provider's payment id */
		$order->add_order_note( sprintf( __( 'Paid: payment %1$s (%2$s).', 'recurring-payments-bridge' ), (string) ( $payment['id'] ?? '' ), $provider_id ) );
		delete_option( $claim );
		return 'completed';
	}

	private function not_paid( WC_Order $order, string $payment_id, string $status ): string {
		if ( $order->is_paid() ) {
			return 'already paid'; // A late failure (another payment, a stale event) never undoes paid.
		}
		/* translators: 1: the service's payment id, 2: failed, expired or canceled */
		$note    = sprintf( __( 'Payment %1$s is %2$s; the order can still be paid.', 'recurring-payments-bridge' ), $payment_id, $status );
		$current = (string) $order->get_meta( self::CURRENT_PAYMENT_META );
		// A late failure of an earlier attempt only makes a note: the buyer's current payment may still succeed.
		$is_current = '' === $current || $current === $payment_id;
		if ( 'failed' === $status && $is_current && $order->has_status( array( 'pending', 'on-hold' ) ) ) {
			$order->update_status( 'failed', $note );
		} else {
			$order->add_order_note( $note );
		}
		return 'noted ' . $status;
	}

	public static function log( string $level, string $message ): void {
		wc_get_logger()->log( $level, $message, array( 'source' => 'recurring-payments-bridge' ) );
	}
}
