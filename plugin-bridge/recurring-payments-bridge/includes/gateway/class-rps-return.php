<?php
defined( 'ABSPATH' ) || exit;

/**
 * The buyer's return to the order-received page. The buyer often arrives a moment before the
 * service's callback; after a failed first attempt the order is still `failed` then, and WooCommerce
 * would show "Order failed" for an order that is being paid. So before the page renders, the current
 * payment's status is read from the service (`GET /api/v2/payments/{id}`, never from the address):
 * paid completes the order (once, with the callback's claim); still under way is asked again briefly,
 * then the page says the payment is being processed instead of failed. The service is asked with the
 * quick client: the page never waits more than a few seconds.
 */
final class RPS_Return {

	/** Reads of a payment still under way: the first and two more, a second apart. */
	private const READS        = 3;
	private const WAIT_SECONDS = 1;
	private const UNDER_WAY    = array( 'open', 'pending', 'authorized' );

	/** @var array<int, true> orders whose payment is under way in this request: the page must not say failed */
	private static array $processing = array();

	/** @var callable(int): mixed */
	private $sleep;

	public static function register(): void {
		add_action( 'template_redirect', array( self::class, 'on_order_received' ), 5 );
		add_filter( 'woocommerce_order_get_status', array( self::class, 'shown_status' ), 10, 2 );
		add_action( 'woocommerce_before_thankyou', array( self::class, 'notice' ) );
	}

	/** `template_redirect`: before WooCommerce renders the order-received page. */
	public static function on_order_received(): void {
		if ( ! function_exists( 'is_order_received_page' ) || ! is_order_received_page() || ! RPS_Settings::is_configured() ) {
			return;
		}
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- the order key is the check, as WooCommerce's own.
		$key   = isset( $_GET['key'] ) ? sanitize_text_field( wp_unslash( $_GET['key'] ) ) : '';
		$order = wc_get_order( absint( get_query_var( 'order-received' ) ) );
		if ( ! $order instanceof WC_Order || '' === $key || ! hash_equals( $order->get_order_key(), $key ) ) {
			return;
		}
		( new self( RPS_Api_Client::from_settings()->quick() ) )->settle( $order );
	}

	/** @param callable(int): mixed|null $sleep waits between reads (tests pass one that does not) */
	public function __construct( private readonly RPS_Api_Client $api, ?callable $sleep = null ) {
		$this->sleep = $sleep ?? 'sleep';
	}

	/**
	 * @return string what was found: paid, processing, not paid, unknown (the service did not answer) or not ours
	 */
	public function settle( WC_Order $order ): string {
		if ( RPS_Gateway::ID !== $order->get_payment_method() ) {
			return 'not ours';
		}
		if ( $order->is_paid() ) {
			return 'paid';
		}
		$payment_id = (string) $order->get_meta( RPS_Callback::CURRENT_PAYMENT_META );
		if ( '' === $payment_id || ! in_array( $payment_id, RPS_Callback::payment_ids( $order ), true ) ) {
			return 'not ours';
		}
		for ( $read = 1; $read <= self::READS; $read++ ) {
			try {
				$payment = $this->api->get( '/api/v2/payments/' . rawurlencode( $payment_id ) );
			} catch ( RPS_Api_Error $error ) {
				RPS_Callback::log( 'warning', sprintf( 'Payment %s of order %d could not be read on the buyer\'s return: %s', $payment_id, $order->get_id(), $error->detail() ) );
				return 'unknown'; // The page shows the order as it is; the callback settles it.
			}
			$status = (string) ( $payment['status'] ?? '' );
			if ( 'paid' === $status && $this->completed( $order, $payment, self::READS - $read ) ) {
				return 'paid';
			}
			if ( 'paid' === $status ) {
				break; // The callback is still completing it: the page says "being processed".
			}
			if ( ! in_array( $status, self::UNDER_WAY, true ) ) {
				return 'not paid'; // failed, expired, canceled: WooCommerce's own page says so and offers to pay again.
			}
			if ( $read < self::READS ) {
				( $this->sleep )( self::WAIT_SECONDS );
			}
		}
		self::$processing[ $order->get_id() ] = true;
		return 'processing';
	}

	/**
	 * Completes the order, or waits (briefly) for the callback that is completing it at this moment;
	 * either way the page then reads the order as stored, not as this request cached it.
	 *
	 * @param array<string, mixed> $payment
	 */
	private function completed( WC_Order $order, array $payment, int $waits ): bool {
		$result = RPS_Callback::complete( $order, $payment );
		if ( 'completed' === $result ) {
			RPS_Callback::log( 'info', sprintf( 'Order %d completed on the buyer\'s return: payment %s is paid.', $order->get_id(), (string) ( $payment['id'] ?? '' ) ) );
		}
		for ( $wait = 0; 'being completed' === $result && $wait < $waits; $wait++ ) {
			( $this->sleep )( self::WAIT_SECONDS );
			$fresh  = RPS_Callback::fresh_order( $order->get_id() );
			$result = $fresh instanceof WC_Order && $fresh->is_paid() ? 'already paid' : $result;
		}
		RPS_Callback::fresh_order( $order->get_id() );
		return 'being completed' !== $result;
	}

	/**
	 * `woocommerce_order_get_status` (the "view" status pages show, which `has_status()` reads too;
	 * saving uses the stored one): while this request found the order's current payment under way, a
	 * `failed` left by an earlier attempt is shown as `pending` — the classic thank-you template and
	 * the Order Confirmation block then say "received", not "Order failed". Nothing is written.
	 */
	public static function shown_status( mixed $status, mixed $order ): mixed {
		if ( 'failed' !== $status || ! $order instanceof WC_Order || ! isset( self::$processing[ $order->get_id() ] ) ) {
			return $status;
		}
		return 'pending';
	}

	/** `woocommerce_before_thankyou`: says the payment is being processed while it is. */
	public static function notice( int $order_id ): void {
		if ( isset( self::$processing[ $order_id ] ) ) {
			echo '<div class="woocommerce-info" role="status">' . esc_html__( 'Your payment is being processed. You will receive an e-mail as soon as it is confirmed; you need not pay again.', 'recurring-payments-bridge' ) . '</div>';
		}
	}

	/** For tests: forgets what this request found. */
	public static function reset(): void {
		self::$processing = array();
	}
}
