<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

/** WooCommerce's refund button (and REST `api_refund`) through the gateway's process_refund. */
final class RefundTest extends StubTestCase {

	private static function paid_order( array $fields = array() ): WC_Order {
		$order = self::order( $fields );
		$order->update_meta_data( RPS_Callback::CURRENT_PAYMENT_META, 'pay_first' );
		$order->save();
		return $order;
	}

	public function test_the_gateway_supports_refunds(): void {
		$this->assertTrue( ( new RPS_Gateway() )->supports( 'refunds' ) );
	}

	public function test_a_refund_asks_the_service_to_refund_the_orders_payment_with_a_key_of_the_order_and_notes_it(): void {
		self::paid_order( array( 'refunds' => array( 'refund-1' ) ) );
		self::answer( 200, array( 'data' => array() ) );
		self::answer( 201, array( 'id' => 'rfd_1', 'status' => 'pending', 'amount' => '5.00' ) );

		$result = ( new RPS_Gateway() )->process_refund( 42, '5.00', 'Broken cup' );

		$this->assertTrue( $result );
		$this->assertSame( array( 'GET /api/v2/payments/pay_first/refunds', 'POST /api/v2/payments/pay_first/refunds' ), self::requests_made() );
		$body = self::body_sent_to( 'POST', '/api/v2/payments/pay_first/refunds' );
		$headers = RPS_Stub_State::$requests[1]['args']['headers'];
		$this->assertSame( 'Bearer ' . self::TOKEN, $headers['Authorization'] );
		$this->assertMatchesRegularExpression( '/^wc-[0-9a-f]{12}-refund-42-1-500$/', $headers['Idempotency-Key'] );
		// The reference is the key: the service answers the first refund for it, also after the key's 24 hours.
		$this->assertSame( array( 'amount' => 5, 'description' => 'Broken cup', 'reference' => $headers['Idempotency-Key'] ), $body );
		$this->assertStringContainsString( 'rfd_1', implode( "\n", self::stored()['notes'] ) );
		$this->assertSame( array( 'rfd_1' ), self::stored()['meta'][ RPS_Refunds::IDS_META ] );
		$this->assertArrayNotHasKey( 'rps_refunds_claim_42', RPS_Stub_State::$options, 'the claim is released' );
	}

	public function test_a_refusal_of_the_service_is_a_wp_error_with_its_reason(): void {
		self::paid_order();
		self::answer( 200, array( 'data' => array() ) );
		self::answer(
			422,
			array(
				'error'  => 'Could not refund payment',
				'code'   => 'validation_failed',
				'fields' => array( 'amount' => array( 'The amount is more than can still be refunded (7.50 EUR).' ) ),
			)
		);

		$result = ( new RPS_Gateway() )->process_refund( 42, 8.0, '' );

		$this->assertInstanceOf( WP_Error::class, $result );
		$this->assertSame( 'The refund was refused: The amount is more than can still be refunded (7.50 EUR).', $result->get_error_message() );
		$this->assertSame( 8, self::body_sent_to( 'POST', '/api/v2/payments/pay_first/refunds' )['amount'] );
	}

	public function test_no_answer_is_a_wp_error_that_says_a_retry_is_safe(): void {
		self::paid_order();
		self::answer( 200, array( 'data' => array() ) );
		self::no_answer();

		$result = ( new RPS_Gateway() )->process_refund( 42, 5, '' );

		$this->assertInstanceOf( WP_Error::class, $result );
		$this->assertStringContainsString( 'will not be refunded twice', $result->get_error_message() );
	}

	public function test_an_order_not_paid_through_the_service_or_a_zero_amount_is_refused_without_asking(): void {
		self::order( array( 'payment_method' => 'bacs' ) );
		$this->assertInstanceOf( WP_Error::class, ( new RPS_Gateway() )->process_refund( 42, 5, '' ) );
		self::paid_order();
		$zero = ( new RPS_Gateway() )->process_refund( 42, 0, '' );
		$this->assertInstanceOf( WP_Error::class, $zero );
		$this->assertSame( 'Enter an amount greater than zero to refund.', $zero->get_error_message() );
		$this->assertSame( array(), self::requests_made() );
	}

	public function test_a_refund_after_a_lost_answer_looks_its_reference_up_and_does_not_refund_again(): void {
		self::paid_order( array( 'refunds' => array( 'refund-1' ) ) );
		self::answer( 200, array( 'data' => array() ) );
		self::no_answer(); // The service made the refund; its answer was lost.
		$this->assertInstanceOf( WP_Error::class, ( new RPS_Gateway() )->process_refund( 42, 5, '' ) );
		$reference = self::body_sent_to( 'POST', '/api/v2/payments/pay_first/refunds' )['reference'];
		self::request_ends(); // WooCommerce has deleted its record of the failed refund.

		// Pressed again (a day later: past the service's Idempotency-Key window), for the same refund of the order.
		self::answer( 200, array( 'data' => array( array( 'id' => 'rfd_1', 'status' => 'refunded', 'amount' => '5.00', 'reference' => $reference ) ) ) );
		$result = ( new RPS_Gateway() )->process_refund( 42, 5, '' );

		$this->assertTrue( $result, 'WooCommerce records the refund that went out' );
		$this->assertSame(
			array( 'GET /api/v2/payments/pay_first/refunds', 'POST /api/v2/payments/pay_first/refunds', 'GET /api/v2/payments/pay_first/refunds' ),
			self::requests_made(),
			'no second refund is asked for'
		);
		$this->assertSame( array( 'rfd_1' ), self::stored()['meta'][ RPS_Refunds::IDS_META ] );
	}

	public function test_a_refund_of_another_reference_or_one_that_failed_is_not_taken_for_this_one(): void {
		self::paid_order( array( 'refunds' => array( 'refund-1' ) ) );
		self::answer(
			200,
			array(
				'data' => array(
					array( 'id' => 'rfd_0', 'status' => 'refunded', 'amount' => '5.00', 'reference' => 'wc-other-refund-42-0-500' ),
					array( 'id' => 'rfd_9', 'status' => 'failed', 'amount' => '5.00', 'reference' => null ),
				),
			)
		);
		self::answer( 201, array( 'id' => 'rfd_1', 'status' => 'pending', 'amount' => '5.00' ) );
		$this->assertTrue( ( new RPS_Gateway() )->process_refund( 42, 5, '' ) );
		$this->assertSame( array( 'rfd_1' ), self::stored()['meta'][ RPS_Refunds::IDS_META ] );
	}

	public function test_a_refund_that_failed_at_the_provider_is_an_error_and_the_next_attempt_has_a_new_reference(): void {
		self::paid_order( array( 'refunds' => array( 'refund-1' ) ) );
		self::answer( 200, array( 'data' => array() ) );
		self::answer( 201, array( 'id' => 'rfd_1', 'status' => 'failed', 'amount' => '5.00', 'failure_reason' => 'Insufficient balance' ) );
		$failed = ( new RPS_Gateway() )->process_refund( 42, 5, '' );
		$this->assertInstanceOf( WP_Error::class, $failed );
		$this->assertSame( 'The refund failed at the payment provider: Insufficient balance', $failed->get_error_message() );
		$first = self::body_sent_to( 'POST', '/api/v2/payments/pay_first/refunds' )['reference'];
		self::request_ends();

		RPS_Stub_State::$requests = array();
		self::answer( 200, array( 'data' => array() ) );
		self::answer( 201, array( 'id' => 'rfd_2', 'status' => 'pending', 'amount' => '5.00' ) );
		$this->assertTrue( ( new RPS_Gateway() )->process_refund( 42, 5, '' ) );
		$this->assertSame( $first . '-1', self::body_sent_to( 'POST', '/api/v2/payments/pay_first/refunds' )['reference'] );
	}

	/** @return array{0: int, 1: string} */
	private static function refund_callback( string $event = 'refund.refunded' ): array {
		$body = json_encode( array( 'id' => 'pay_first', 'event' => $event, 'refund_id' => 'rfd_1', 'status' => 'refunded' ) );
		$t    = (string) time();
		return ( new RPS_Callback( RPS_Api_Client::from_settings(), self::SECRET ) )->process( $body, 't=' . $t . ',v1=' . hash_hmac( 'sha256', $t . '.' . $body, self::SECRET ), 42, 'wc_order_abc123' );
	}

	public function test_the_refund_callback_records_a_refund_whose_answer_was_lost_once_and_the_button_then_refunds_nothing(): void {
		self::paid_order( array( 'status' => 'processing', 'meta' => array( RPS_Callback::PAYMENT_IDS_META => array( 'pay_first' ) ) ) );
		$refunds = array( 'data' => array( array( 'id' => 'rfd_1', 'status' => 'refunded', 'amount' => '5.00', 'description' => 'Broken cup', 'reference' => 'wc-x-refund-42-1-500' ) ) );
		self::answer( 200, $refunds );
		$this->assertSame( array( 200, 'recorded rfd_1' ), self::refund_callback() );
		$this->assertSame( array( array( 'amount' => '5.00', 'reason' => 'Broken cup', 'refund_payment' => false ) ), self::stored()['refunds'] );
		$this->assertSame( array( 'rfd_1' ), self::stored()['meta'][ RPS_Refunds::IDS_META ] );
		$this->assertArrayNotHasKey( 'rps_refunds_claim_42', RPS_Stub_State::$options, 'the claim is released' );

		// The event again (delivered at least once): nothing more.
		self::answer( 200, $refunds );
		$this->assertSame( array( 200, 'refunds up to date' ), self::refund_callback( 'refund.created' ) );
		$this->assertCount( 1, self::stored()['refunds'] );

		// The merchant presses the button again from the screen loaded before the record (WooCommerce made a new one).
		$order = wc_get_order( 42 );
		$this->assertInstanceOf( WC_Order::class, $order );
		RPS_Stub_State::$requests = array();
		$again                    = ( new RPS_Gateway() )->process_refund( 42, 5, '' );
		$this->assertInstanceOf( WP_Error::class, $again );
		$this->assertStringContainsString( 'just recorded on the order (refund rfd_1)', $again->get_error_message() );
		$this->assertSame( array(), self::requests_made(), 'nothing is asked of the service' );
	}

	public function test_a_refund_recorded_before_its_id_was_kept_is_not_recorded_again(): void {
		self::paid_order( array( 'status' => 'processing', 'refunds' => array( array( 'amount' => '5.00' ) ), 'meta' => array( RPS_Callback::PAYMENT_IDS_META => array( 'pay_first' ) ) ) );
		self::answer( 200, array( 'data' => array( array( 'id' => 'rfd_old', 'status' => 'refunded', 'amount' => '5.00', 'reference' => null ) ) ) );
		$this->assertSame( array( 200, 'refunds up to date' ), self::refund_callback() );
		$this->assertCount( 1, self::stored()['refunds'] );
	}

	public function test_a_refund_callback_while_the_refund_button_waits_for_the_service_is_answered_503_to_come_again(): void {
		self::paid_order( array( 'status' => 'processing', 'meta' => array( RPS_Callback::PAYMENT_IDS_META => array( 'pay_first' ) ) ) );
		add_option( 'rps_refunds_claim_42', array( 'by' => RPS_Refunds::BY_BUTTON, 'at' => time() ) );
		$this->assertSame( array( 503, 'a refund is being made' ), self::refund_callback() );
		$this->assertSame( array(), self::requests_made() );
	}

	public function test_a_refund_callback_while_another_records_the_orders_refunds_is_answered_503_to_come_again(): void {
		self::paid_order( array( 'status' => 'processing', 'meta' => array( RPS_Callback::PAYMENT_IDS_META => array( 'pay_first' ) ) ) );
		add_option( 'rps_refunds_claim_42', array( 'by' => RPS_Refunds::BY_CALLBACK, 'at' => time() ) );
		$this->assertSame( array( 503, 'refunds being recorded' ), self::refund_callback() );
		$this->assertSame( array(), self::requests_made() );
		$this->assertArrayHasKey( 'rps_refunds_claim_42', RPS_Stub_State::$options, 'the other one keeps its claim' );
	}

	/**
	 * As WooCommerce's refund button (wc_create_refund, 9.9.5): `woocommerce_create_refund` runs, its refund
	 * record is written, then the gateway is asked; a record whose refund failed is deleted again (after the gateway answered). What another
	 * request does between the record's save and the gateway's call is $after_save.
	 */
	private static function press_refund_button( string $amount, ?Closure $after_save = null ): bool|WP_Error {
		try { // do_action( 'woocommerce_create_refund' ), before the save; an exception is WooCommerce's WP_Error.
			RPS_Refunds::claim_before_record( null, array( 'order_id' => 42, 'amount' => $amount, 'refund_payment' => true ) );
		} catch ( Exception $refused ) {
			return new WP_Error( 'error', $refused->getMessage() );
		}
		RPS_Stub_State::$orders[42]['refunds'][] = array( 'amount' => $amount, 'reason' => '', 'refund_payment' => true );
		if ( null !== $after_save ) {
			$after_save();
		}
		$result = ( new RPS_Gateway() )->process_refund( 42, $amount, '' );
		if ( true !== $result ) {
			array_pop( RPS_Stub_State::$orders[42]['refunds'] );
		}
		return $result;
	}

	/** The first press whose answer was lost: the refund went out under this reference. */
	private function lost_first_refund(): string {
		self::paid_order( array( 'status' => 'processing', 'meta' => array( RPS_Callback::PAYMENT_IDS_META => array( 'pay_first' ) ) ) );
		self::answer( 200, array( 'data' => array() ) );
		self::no_answer();
		$this->assertInstanceOf( WP_Error::class, self::press_refund_button( '5.00' ) );
		self::request_ends();
		$this->assertSame( array(), self::stored()['refunds'] ?? array() );
		$reference                = self::body_sent_to( 'POST', '/api/v2/payments/pay_first/refunds' )['reference'];
		RPS_Stub_State::$requests = array();
		return $reference;
	}

	public function test_the_button_pressed_while_a_callback_records_the_refunds_is_refused_and_the_refund_is_recorded_once(): void {
		$reference = $this->lost_first_refund();
		$refunds   = array( 'data' => array( array( 'id' => 'rfd_1', 'status' => 'refunded', 'amount' => '5.00', 'reference' => $reference ) ) );
		$button    = null;
		// The callback has read the order and waits for the service's refunds when the merchant presses again.
		self::meanwhile(
			static function () use ( &$button, $refunds ): void {
				self::answer( 200, $refunds ); // What the button would be told, were it to ask.
				$button = self::press_refund_button( '5.00' );
			},
			200,
			$refunds
		);

		$callback = self::refund_callback();

		$this->assertSame( array( array( 'amount' => '5.00', 'reason' => '', 'refund_payment' => false ) ), self::stored()['refunds'], 'one record of the refund' );
		$this->assertSame( array( 200, 'recorded rfd_1' ), $callback );
		$this->assertInstanceOf( WP_Error::class, $button );
		$this->assertSame( 'The refunds of this order are being recorded from the service just now. Nothing was refunded: reload the order in a moment and check its refunds before refunding again.', $button->get_error_message() );
		$this->assertSame( array( 'GET /api/v2/payments/pay_first/refunds' ), self::requests_made(), 'the button asked nothing' );
		$this->assertSame( array( 'rfd_1' ), self::stored()['meta'][ RPS_Refunds::IDS_META ] );
		$this->assertArrayNotHasKey( 'rps_refunds_claim_42', RPS_Stub_State::$options );
	}

	public function test_a_callback_while_the_button_asks_is_answered_503_and_after_the_buttons_record_records_nothing_more(): void {
		self::paid_order( array( 'status' => 'processing', 'meta' => array( RPS_Callback::PAYMENT_IDS_META => array( 'pay_first' ) ) ) );
		$callback = null;
		self::answer( 200, array( 'data' => array() ) );
		// The service made the refund and its callback arrives before the service's answer reaches the button.
		self::meanwhile(
			static function () use ( &$callback ): void {
				$callback = self::refund_callback();
			},
			201,
			array( 'id' => 'rfd_1', 'status' => 'pending', 'amount' => '5.00' )
		);

		$this->assertTrue( self::press_refund_button( '5.00' ) );

		$this->assertSame( array( 503, 'a refund is being made' ), $callback );
		$this->assertSame( array( 'GET /api/v2/payments/pay_first/refunds', 'POST /api/v2/payments/pay_first/refunds' ), self::requests_made() );
		$this->assertArrayNotHasKey( 'rps_refunds_claim_42', RPS_Stub_State::$options, 'released after a refund that went out' );

		// The service retries the event.
		self::answer( 200, array( 'data' => array( array( 'id' => 'rfd_1', 'status' => 'pending', 'amount' => '5.00' ) ) ) );
		$this->assertSame( array( 200, 'refunds up to date' ), self::refund_callback() );
		$this->assertCount( 1, self::stored()['refunds'] );
	}

	public function test_a_callback_before_woocommerce_deleted_a_failed_refunds_record_waits_and_then_records_the_refund(): void {
		self::paid_order( array( 'status' => 'processing', 'meta' => array( RPS_Callback::PAYMENT_IDS_META => array( 'pay_first' ) ) ) );
		self::answer( 200, array( 'data' => array() ) );
		self::no_answer(); // The refund went out; its answer was lost.
		RPS_Stub_State::$orders[42]['refunds'][] = array( 'amount' => '5.00', 'reason' => '', 'refund_payment' => true );
		$this->assertInstanceOf( WP_Error::class, ( new RPS_Gateway() )->process_refund( 42, '5.00', '' ) );

		// The callback arrives before WooCommerce deletes its record of the refund it takes for failed.
		$this->assertSame( array( 503, 'a refund is being made' ), self::refund_callback() );

		array_pop( RPS_Stub_State::$orders[42]['refunds'] );
		self::request_ends();
		self::answer( 200, array( 'data' => array( array( 'id' => 'rfd_1', 'status' => 'refunded', 'amount' => '5.00' ) ) ) );
		$this->assertSame( array( 200, 'recorded rfd_1' ), self::refund_callback() );
		$this->assertSame( array( array( 'amount' => '5.00', 'reason' => '', 'refund_payment' => false ) ), self::stored()['refunds'] );
	}

	public function test_the_button_pressed_while_another_press_waits_for_the_service_is_refused_without_asking(): void {
		self::paid_order();
		add_option( 'rps_refunds_claim_42', array( 'by' => RPS_Refunds::BY_BUTTON, 'at' => time() ) );

		$result = ( new RPS_Gateway() )->process_refund( 42, '5.00', '' );

		$this->assertInstanceOf( WP_Error::class, $result );
		$this->assertSame( 'Another refund of this order is being made just now. Nothing was refunded: reload the order in a moment and check its refunds before refunding again.', $result->get_error_message() );
		$this->assertSame( array(), self::requests_made() );
		$this->assertArrayHasKey( 'rps_refunds_claim_42', RPS_Stub_State::$options, 'the other press keeps its claim' );
	}

	/**
	 * A `refund.*` callback that runs while another request waits: it takes its own answer from the service, if it
	 * asks at all (an answer it leaves is dropped, so the other request's answers stay in order).
	 *
	 * @param array<string, mixed> $refunds what the service lists for the payment
	 * @return array{0: int, 1: string}
	 */
	private static function refund_callback_answered( array $refunds ): array {
		$queued = count( RPS_Stub_State::$responses );
		array_unshift( RPS_Stub_State::$responses, array( 'response' => array( 'code' => 200 ), 'body' => json_encode( $refunds ) ) );
		$answer = self::refund_callback();
		if ( count( RPS_Stub_State::$responses ) > $queued ) {
			array_shift( RPS_Stub_State::$responses );
		}
		return $answer;
	}

	public function test_a_callback_between_woocommerces_refund_record_and_the_gateways_call_does_not_take_that_record_for_its_refund(): void {
		// Paid 5.00; the whole 5.00 was refunded in the provider's dashboard (rfd_1) and the merchant, not yet seeing
		// it in the store, presses "Refund 5.00". WooCommerce saves its record of that press, and rfd_1's callback
		// arrives before WooCommerce asks the gateway.
		self::paid_order( array( 'status' => 'processing', 'total' => '5.00', 'meta' => array( RPS_Callback::PAYMENT_IDS_META => array( 'pay_first' ) ) ) );
		$refunds  = array( 'data' => array( array( 'id' => 'rfd_1', 'status' => 'refunded', 'amount' => '5.00', 'reference' => null ) ) );
		$callback = null;
		self::answer( 200, $refunds );
		self::answer( 422, array( 'error' => 'Could not refund payment', 'code' => 'validation_failed', 'fields' => array( 'amount' => array( 'The amount is more than can still be refunded (0.00 EUR).' ) ) ) );

		$button = self::press_refund_button(
			'5.00',
			static function () use ( &$callback, $refunds ): void {
				$callback = self::refund_callback_answered( $refunds );
			}
		);
		self::request_ends();

		$this->assertInstanceOf( WP_Error::class, $button, 'the service refused a second 5.00' );
		if ( 503 === ( $callback[0] ?? 0 ) ) { // Only an answer other than 200 makes the service deliver the event again.
			self::answer( 200, $refunds );
			$this->assertSame( array( 200, 'recorded rfd_1' ), self::refund_callback() );
		}
		$this->assertSame( array( array( 'amount' => '5.00', 'reason' => '', 'refund_payment' => false ) ), self::stored()['refunds'], 'one record of rfd_1' );
		$this->assertSame( array( 'rfd_1' ), self::stored()['meta'][ RPS_Refunds::IDS_META ] );
		$this->assertSame( array( 503, 'a refund is being made' ), $callback, 'the button\'s record, deleted again, is not counted as rfd_1' );
	}

	public function test_a_callback_between_the_record_and_the_gateways_call_of_a_retried_refund_leaves_one_record(): void {
		$reference = $this->lost_first_refund();
		$refunds   = array( 'data' => array( array( 'id' => 'rfd_1', 'status' => 'refunded', 'amount' => '5.00', 'reference' => $reference ) ) );
		$callback  = null;
		self::answer( 200, $refunds ); // The button's look-up by its reference.

		$button = self::press_refund_button(
			'5.00',
			static function () use ( &$callback, $refunds ): void {
				$callback = self::refund_callback_answered( $refunds );
			}
		);
		self::request_ends();
		self::answer( 200, $refunds );
		$retried = self::refund_callback();

		$this->assertTrue( $button, 'the retry records the refund that went out' );
		$this->assertContains( $callback, array( array( 503, 'a refund is being made' ), array( 200, 'refunds up to date' ) ) );
		$this->assertSame( array( 200, 'refunds up to date' ), $retried );
		$this->assertSame( array( array( 'amount' => '5.00', 'reason' => '', 'refund_payment' => true ) ), self::stored()['refunds'], 'one record of rfd_1' );
		$this->assertSame( array( 'rfd_1' ), self::stored()['meta'][ RPS_Refunds::IDS_META ] );
		$this->assertSame( array( 'GET /api/v2/payments/pay_first/refunds', 'GET /api/v2/payments/pay_first/refunds' ), array_slice( self::requests_made(), 0, 2 ), 'no second refund is asked for' );
	}

	public function test_the_button_pressed_while_a_callback_records_the_refunds_is_refused_before_woocommerce_saves_its_record(): void {
		self::paid_order( array( 'status' => 'processing', 'meta' => array( RPS_Callback::PAYMENT_IDS_META => array( 'pay_first' ) ) ) );
		add_option( 'rps_refunds_claim_42', array( 'by' => RPS_Refunds::BY_CALLBACK, 'at' => time(), 'token' => 'theirs' ) );

		$button = self::press_refund_button( '5.00' );

		$this->assertInstanceOf( WP_Error::class, $button );
		$this->assertSame( 'The refunds of this order are being recorded from the service just now. Nothing was refunded: reload the order in a moment and check its refunds before refunding again.', $button->get_error_message() );
		$this->assertSame( array(), self::stored()['refunds'] ?? array(), 'no record was saved' );
		$this->assertSame( array(), self::requests_made() );
		self::request_ends();
		$this->assertSame( 'theirs', RPS_Stub_State::$options['rps_refunds_claim_42']['token'], 'the callback keeps its claim' );
	}

	public function test_a_refund_only_recorded_or_of_an_order_paid_otherwise_takes_no_claim(): void {
		self::paid_order();
		RPS_Refunds::claim_before_record( null, array( 'order_id' => 42, 'amount' => '5.00', 'refund_payment' => false ) );
		$this->assertArrayNotHasKey( 'rps_refunds_claim_42', RPS_Stub_State::$options, 'WooCommerce only records it (the callback\'s own record)' );
		self::order( array( 'payment_method' => 'bacs' ) );
		RPS_Refunds::claim_before_record( null, array( 'order_id' => 42, 'amount' => '5.00', 'refund_payment' => true ) );
		$this->assertArrayNotHasKey( 'rps_refunds_claim_42', RPS_Stub_State::$options, 'another gateway refunds it' );
	}

	public function test_the_end_of_the_buttons_request_leaves_a_claim_another_request_has_taken_since(): void {
		self::paid_order();
		RPS_Refunds::claim_before_record( null, array( 'order_id' => 42, 'amount' => '5.00', 'refund_payment' => true ) );
		$this->assertSame( RPS_Refunds::BY_BUTTON, RPS_Stub_State::$options['rps_refunds_claim_42']['by'] );
		// WooCommerce stopped before asking the gateway; the claim expired and a callback took it.
		update_option( 'rps_refunds_claim_42', array( 'by' => RPS_Refunds::BY_CALLBACK, 'at' => time(), 'token' => 'theirs' ) );
		self::request_ends();
		$this->assertSame( 'theirs', RPS_Stub_State::$options['rps_refunds_claim_42']['token'] );
	}

	public function test_a_button_claim_left_by_a_request_that_died_is_taken_over_by_the_next_press(): void {
		self::paid_order( array( 'refunds' => array( 'refund-1' ) ) );
		add_option( 'rps_refunds_claim_42', array( 'by' => RPS_Refunds::BY_BUTTON, 'at' => time() - 600, 'token' => 'dead' ) );
		self::answer( 200, array( 'data' => array() ) );
		self::answer( 201, array( 'id' => 'rfd_1', 'status' => 'pending', 'amount' => '5.00' ) );

		$this->assertTrue( self::press_refund_button( '5.00' ) );
		$this->assertArrayNotHasKey( 'rps_refunds_claim_42', RPS_Stub_State::$options, 'released after a refund that went out' );
	}
}
