<?php
defined( 'ABSPATH' ) || exit;

/**
 * The service's refunds of an order as WooCommerce records them. A refund whose answer the refund button never
 * got (WooCommerce then deletes its refund record) or one made outside the store (the service's API, the
 * provider's dashboard) still went out: the service's `refund.*` callback brings it here, and it is recorded as a
 * WooCommerce refund without asking the gateway again, once (the service's refund ids are kept on the order).
 */
final class RPS_Refunds {

	/** Order meta: the service's refund ids WooCommerce has a refund record of. */
	public const IDS_META = '_rps_refund_ids';
	/** A refund in these statuses reached the provider and did not fail: its money is going or gone. */
	public const UNDER_WAY = array( 'queued', 'pending', 'processing', 'refunded' );
	/** Order meta: refunds this class recorded, as `{id, cents, at}` (the button's look-out for a stale order screen). */
	public const RECORDED_META = '_rps_refunds_recorded';
	/** A button press this soon after such a record, for the same amount, is taken for the lost refund's retry. */
	private const RECENT_SECONDS = 900;
	/** How long a claim on an order's refunds holds: longer than the button's call to the service takes. */
	private const CLAIM_SECONDS = 120;
	/** Who holds an order's refund claim: the refund button asking the service, or a callback recording refunds. */
	public const BY_BUTTON   = 'button';
	public const BY_CALLBACK = 'callback';

	/** @var array<int, string> order id => the token of the button's claim this request holds */
	private static array $button_token = array();

	public function __construct( private readonly RPS_Api_Client $api ) {}

	/** The service's refund ids recorded on the order. @return list<string> */
	public static function remembered( WC_Order $order ): array {
		$ids = $order->get_meta( self::IDS_META );
		return is_array( $ids ) ? array_values( array_filter( $ids, 'is_string' ) ) : array();
	}

	public static function remember( WC_Order $order, string $refund_id ): void {
		if ( '' === $refund_id || in_array( $refund_id, self::remembered( $order ), true ) ) {
			return;
		}
		$order->update_meta_data( self::IDS_META, array_merge( self::remembered( $order ), array( $refund_id ) ) );
		$order->save();
	}

	/**
	 * The service refund of this amount that a callback recorded in the last 15 minutes, if any: a press of the
	 * button from an order screen loaded before that record is the retry of the lost refund, not a second one.
	 */
	public static function recently_recorded( WC_Order $order, int $cents ): ?string {
		$recorded = $order->get_meta( self::RECORDED_META );
		foreach ( is_array( $recorded ) ? $recorded : array() as $entry ) {
			if ( is_array( $entry ) && (int) ( $entry['cents'] ?? 0 ) === $cents && time() - (int) ( $entry['at'] ?? 0 ) < self::RECENT_SECONDS ) {
				return (string) ( $entry['id'] ?? '' );
			}
		}
		return null;
	}

	/**
	 * One claim per order for both the refund button and the `refund.*` callback: a row with a unique name, so
	 * of the two only one reads the order's refunds and writes a record of one at a time. Without it a callback
	 * that read the refunds before the button's record existed would record the same refund a second time.
	 *
	 * @return string|null null when claimed; otherwise who holds it (BY_BUTTON or BY_CALLBACK)
	 */
	public static function claim( WC_Order $order, string $by ): ?string {
		$name  = self::claim_name( $order->get_id() );
		$claim = array( 'by' => $by, 'at' => time(), 'token' => bin2hex( random_bytes( 8 ) ) );
		if ( ! add_option( $name, $claim, '', false ) ) {
			$held = get_option( $name, array() );
			$held = is_array( $held ) ? $held : array( 'at' => (int) $held );
			if ( time() - (int) ( $held['at'] ?? 0 ) < self::CLAIM_SECONDS ) {
				return self::BY_BUTTON === ( $held['by'] ?? '' ) ? self::BY_BUTTON : self::BY_CALLBACK;
			}
			update_option( $name, $claim, false ); // Left by a request that died: it expired.
		}
		if ( self::BY_BUTTON === $by ) {
			self::$button_token[ $order->get_id() ] = $claim['token'];
		}
		return null;
	}

	/**
	 * `woocommerce_create_refund`: the refund button's claim, taken before WooCommerce saves its refund record with
	 * the amount (update_taxes() saved it once before, with a total of 0: that counts nothing). wc_create_refund
	 * (9.9.5) saves the record and calls the gateway's process_refund after it; were the claim taken only there, a
	 * `refund.*` callback in between would count the button's record as the service's refund — a record WooCommerce
	 * deletes again when the gateway fails, so that refund would never be recorded. Refused, the exception is
	 * WooCommerce's answer to the button (it catches it and deletes the record).
	 *
	 * @param mixed $refund the WC_Order_Refund about to be saved
	 * @param mixed $args   wc_create_refund's arguments
	 * @throws Exception When another refund or a callback holds the order's claim.
	 */
	public static function claim_before_record( mixed $refund, mixed $args ): void {
		if ( ! is_array( $args ) || empty( $args['refund_payment'] ) ) {
			return; // Only recorded, nobody is asked (the callback's own records, "Refund manually").
		}
		$order = wc_get_order( (int) ( $args['order_id'] ?? 0 ) );
		if ( ! $order instanceof WC_Order || RPS_Gateway::ID !== $order->get_payment_method() ) {
			return;
		}
		$held = self::claim( $order, self::BY_BUTTON );
		if ( null !== $held ) {
			throw new Exception( self::refused_because( $held ) );
		}
		// Should WooCommerce stop before asking the gateway, the request's end still lets the claim go.
		self::release_after_cleanup( $order );
	}

	/**
	 * For the gateway's process_refund: the button's claim this request took before the record was saved, or
	 * taken now (a caller that asks the gateway without wc_create_refund).
	 *
	 * @return string|null null when this request holds it; otherwise why the refund is refused
	 */
	public static function claim_for_button( WC_Order $order ): ?string {
		$held = get_option( self::claim_name( $order->get_id() ), array() );
		$mine = self::$button_token[ $order->get_id() ] ?? null;
		if ( null !== $mine && is_array( $held ) && ( $held['token'] ?? '' ) === $mine && time() - (int) ( $held['at'] ?? 0 ) < self::CLAIM_SECONDS ) {
			return null;
		}
		$held = self::claim( $order, self::BY_BUTTON );
		return null === $held ? null : self::refused_because( $held );
	}

	private static function refused_because( string $held ): string {
		return self::BY_CALLBACK === $held
			? __( 'The refunds of this order are being recorded from the service just now. Nothing was refunded: reload the order in a moment and check its refunds before refunding again.', 'recurring-payments-bridge' )
			: __( 'Another refund of this order is being made just now. Nothing was refunded: reload the order in a moment and check its refunds before refunding again.', 'recurring-payments-bridge' );
	}

	public static function release( WC_Order $order ): void {
		delete_option( self::claim_name( $order->get_id() ) );
		unset( self::$button_token[ $order->get_id() ] );
	}

	/**
	 * Released when the request ends: after a failed refund WooCommerce deletes its refund record only once the
	 * gateway has answered, and a callback in between would count that doomed record as refunded. Only this
	 * request's claim: one released already may have been taken by another request since.
	 */
	public static function release_after_cleanup( WC_Order $order ): void {
		$order_id = $order->get_id();
		$held     = get_option( self::claim_name( $order_id ), array() );
		$token    = is_array( $held ) ? (string) ( $held['token'] ?? '' ) : '';
		add_action(
			'shutdown',
			static function () use ( $order_id, $token ): void {
				$now = get_option( self::claim_name( $order_id ), array() );
				if ( is_array( $now ) && (string) ( $now['token'] ?? '' ) === $token ) {
					delete_option( self::claim_name( $order_id ) );
				}
			}
		);
	}

	private static function claim_name( int $order_id ): string {
		return 'rps_refunds_claim_' . $order_id;
	}

	/**
	 * A `refund.*` callback of the order's payment: each of the payment's refunds that went out and that WooCommerce
	 * has no record of is recorded (never more than the service refunded in all beyond what WooCommerce shows:
	 * refunds recorded before their ids were kept count too).
	 *
	 * @return array{0: int, 1: string} the HTTP status to answer and what was done
	 */
	public function record_missing( WC_Order $order, string $payment_id ): array {
		$held = self::claim( $order, self::BY_CALLBACK );
		if ( null !== $held ) { // The service retries the event.
			return array( 503, self::BY_BUTTON === $held ? 'a refund is being made' : 'refunds being recorded' );
		}
		try {
			// Read again under the claim: the button or another callback may have recorded a refund since this one
			// loaded the order, and what is missing is counted from the refunds as they are now.
			$fresh = RPS_Callback::fresh_order( $order->get_id() );
			return $this->record_under_claim( $fresh instanceof WC_Order ? $fresh : $order, $payment_id );
		} finally {
			self::release( $order );
		}
	}

	/** @return array{0: int, 1: string} */
	private function record_under_claim( WC_Order $order, string $payment_id ): array {
		try {
			$refunds = $this->api->get( '/api/v2/payments/' . rawurlencode( $payment_id ) . '/refunds' );
		} catch ( RPS_Api_Error $error ) {
			RPS_Callback::log( 'error', sprintf( 'Refunds of payment %s (order %d) could not be read: %s', $payment_id, $order->get_id(), $error->detail() ) );
			return array( 503, 'service unavailable' );
		}
		$under_way = array_values(
			array_filter(
				(array) ( $refunds['data'] ?? array() ),
				static fn ( mixed $refund ): bool => is_array( $refund ) && in_array( (string) ( $refund['status'] ?? '' ), self::UNDER_WAY, true )
			)
		);
		$service_cents = array_sum( array_map( static fn ( array $refund ): int => RPS_Money::to_cents( (string) ( $refund['amount'] ?? '0' ) ), $under_way ) );
		$missing_cents = $service_cents - RPS_Money::to_cents( number_format( (float) $order->get_total_refunded(), 2, '.', '' ) );
		$known         = self::remembered( $order );
		$recorded      = array();
		foreach ( $under_way as $refund ) {
			$id    = (string) ( $refund['id'] ?? '' );
			$cents = RPS_Money::to_cents( (string) ( $refund['amount'] ?? '0' ) );
			if ( '' === $id || in_array( $id, $known, true ) || $cents <= 0 || $cents > $missing_cents ) {
				continue;
			}
			$made = wc_create_refund(
				array(
					'order_id'       => $order->get_id(),
					'amount'         => number_format( $cents / 100, 2, '.', '' ),
					'reason'         => (string) ( $refund['description'] ?? '' ),
					'refund_payment' => false, // The service made it: WooCommerce only records it.
					'restock_items'  => false,
				)
			);
			if ( is_wp_error( $made ) ) {
				RPS_Callback::log( 'error', sprintf( 'Refund %s of order %d could not be recorded: %s', $id, $order->get_id(), $made->get_error_message() ) );
				return array( 500, 'could not record refund ' . $id );
			}
			$missing_cents  -= $cents;
			$order           = RPS_Callback::fresh_order( $order->get_id() ) ?: $order;
			$recorded_before = $order->get_meta( self::RECORDED_META );
			$order->update_meta_data(
				self::RECORDED_META,
				array_merge( is_array( $recorded_before ) ? $recorded_before : array(), array( array( 'id' => $id, 'cents' => $cents, 'at' => time() ) ) )
			);
			self::remember( $order, $id );
			$order->add_order_note(
				sprintf(
					/* translators: 1: amount, 2: currency, 3: the service's refund id */
					__( 'Refunded %1$s %2$s through the recurring payments service (refund %3$s); recorded when the service reported it.', 'recurring-payments-bridge' ),
					number_format( $cents / 100, 2, '.', '' ),
					$order->get_currency(),
					$id
				)
			);
			$recorded[] = $id;
		}
		return array( 200, array() === $recorded ? 'refunds up to date' : 'recorded ' . implode( ' ', $recorded ) );
	}
}
