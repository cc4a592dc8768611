<?php

require_once __DIR__ . '/StubTestCase.php';

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
		self::answer( 201, array( 'id' => 'rfd_1', 'status' => 'pending', 'amount' => '5.00' ) );

		$result = ( new RPS_Gateway() )->process_refund( 42, '5.00', 'Broken cup' );

		$this->assertTrue( $result );
		$this->assertSame( array( 'POST /api/v2/payments/pay_first/refunds' ), self::requests_made() );
		$this->assertSame( array( 'amount' => 5, 'description' => 'Broken cup' ), self::body_sent_to( 'POST', '/api/v2/payments/pay_first/refunds' ) );
		$headers = RPS_Stub_State::$requests[0]['args']['headers'];
		$this->assertSame( 'Bearer ' . self::TOKEN, $headers['Authorization'] );
		$this->assertMatchesRegularExpression( '/^wc-[0-9a-f]{12}-refund-42-1-500$/', $headers['Idempotency-Key'] );
		$this->assertStringContainsString( 'rfd_1', implode( "\n", self::stored()['notes'] ) );
	}

	public function test_a_refusal_of_the_service_is_a_wp_error_with_its_reason(): void {
		self::paid_order();
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
		$this->assertSame( array( 'amount' => 8 ), self::body_sent_to( 'POST', '/api/v2/payments/pay_first/refunds' ) );
	}

	public function test_no_answer_is_a_wp_error_that_says_a_retry_is_safe(): void {
		self::paid_order();
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
}
