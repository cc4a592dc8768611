<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

/**
 * The buyer's return after a failed first attempt and a paid second one: the order-received page
 * must not say "Order failed" because the buyer arrived before the callback.
 */
final class ReturnTest extends StubTestCase {

	private const SECOND = array( 'id' => 'pay_second', 'provider_payment_id' => 'tr_2', 'status' => 'paid' );

	/** @var list<int> the waits the return asked for */
	private array $waits = array();

	protected function setUp(): void {
		parent::setUp();
		$this->waits = array();
		// The first payment failed (its callback marked the order failed); the buyer paid the second.
		self::order(
			array(
				'status' => 'failed',
				'meta'   => array(
					RPS_Callback::PAYMENT_IDS_META     => array( 'pay_first', 'pay_second' ),
					RPS_Callback::CURRENT_PAYMENT_META => 'pay_second',
				),
			)
		);
	}

	private function returned(): RPS_Return {
		return new RPS_Return(
			RPS_Api_Client::from_settings()->quick(),
			function ( int $seconds ): void {
				$this->waits[] = $seconds;
			}
		);
	}

	public function test_a_paid_second_payment_completes_the_failed_order_before_the_page_renders_and_the_late_callback_changes_nothing(): void {
		self::answer( 200, self::SECOND );
		$this->assertSame( 'paid', $this->returned()->settle( wc_get_order( 42 ) ) );
		$this->assertSame( array( 'GET /api/v2/payments/pay_second' ), self::requests_made() );
		$this->assertSame( RPS_Api_Client::QUICK_TIMEOUT_SECONDS, RPS_Stub_State::$requests[0]['args']['timeout'] );
		$this->assertLessThanOrEqual( 3, RPS_Stub_State::$requests[0]['args']['timeout'] );
		$this->assertSame( 'processing', self::stored()['status'] );
		$this->assertSame( 'tr_2', self::stored()['transaction_id'] );

		self::answer( 200, self::SECOND );
		$event = json_encode( array( 'id' => 'pay_second', 'event' => 'payment.paid', 'status' => 'paid' ) );
		$t     = (string) time();
		$sig   = 't=' . $t . ',v1=' . hash_hmac( 'sha256', $t . '.' . $event, self::SECRET );
		$this->assertSame( array( 200, 'already paid' ), ( new RPS_Callback( RPS_Api_Client::from_settings(), self::SECRET ) )->process( $event, $sig, 42, 'wc_order_abc123' ) );
		$this->assertSame( 1, self::stored()['payment_complete_calls'], 'paid once' );
		$this->assertSame( 'processing', RPS_Return::shown_status( 'processing', wc_get_order( 42 ) ), 'a paid order is shown as it is' );
	}

	public function test_an_order_the_callback_completed_meanwhile_is_not_completed_again(): void {
		$loaded = wc_get_order( 42 ); // Loaded as failed, then the callback completes it in its own request.
		wc_get_order( 42 )->payment_complete( 'tr_2' );
		self::answer( 200, self::SECOND );
		$this->assertSame( 'paid', $this->returned()->settle( $loaded ) );
		$this->assertSame( 1, self::stored()['payment_complete_calls'] );
		$this->assertArrayNotHasKey( 'rps_completing_42', RPS_Stub_State::$options );
	}

	public function test_a_callback_completing_the_order_at_this_moment_is_waited_for_briefly_and_never_doubled(): void {
		add_option( 'rps_completing_42', time() ); // The callback holds the claim.
		self::answer( 200, self::SECOND );
		$order = wc_get_order( 42 );
		$this->assertSame( 'processing', $this->returned()->settle( $order ) );
		$this->assertSame( array( 1, 1 ), $this->waits );
		$this->assertSame( 0, self::stored()['payment_complete_calls'] );
		$this->assertSame( 'pending', RPS_Return::shown_status( 'failed', $order ), 'not "Order failed" while it is being completed' );

		RPS_Return::reset();
		$this->waits = array();
		self::answer( 200, self::SECOND );
		$sleeps = 0;
		$return = new RPS_Return(
			RPS_Api_Client::from_settings()->quick(),
			static function () use ( &$sleeps ): void {
				++$sleeps;
				wc_get_order( 42 )->payment_complete( 'tr_2' ); // The callback finishes meanwhile.
			}
		);
		$this->assertSame( 'paid', $return->settle( wc_get_order( 42 ) ) );
		$this->assertSame( 1, $sleeps );
		$this->assertSame( 1, self::stored()['payment_complete_calls'] );
	}

	public function test_a_payment_still_under_way_is_asked_again_briefly_then_the_page_says_processing_not_failed(): void {
		self::answer( 200, array( 'status' => 'open' ) + self::SECOND );
		self::answer( 200, array( 'status' => 'pending' ) + self::SECOND );
		self::answer( 200, array( 'status' => 'open' ) + self::SECOND );
		$order = wc_get_order( 42 );
		$this->assertSame( 'processing', $this->returned()->settle( $order ) );
		$this->assertCount( 3, RPS_Stub_State::$requests );
		$this->assertSame( array( 1, 1 ), $this->waits );
		$this->assertSame( 'failed', self::stored()['status'], 'nothing is written: the callback settles it' );
		$this->assertSame( 'pending', RPS_Return::shown_status( 'failed', $order ), 'the page does not show "Order failed"' );
		$this->assertSame( 'failed', RPS_Return::shown_status( 'failed', self::order( array( 'id' => 43, 'status' => 'failed' ) ) ), 'only this order' );
		ob_start();
		RPS_Return::notice( 42 );
		$this->assertStringContainsString( 'Your payment is being processed', (string) ob_get_clean() );
		ob_start();
		RPS_Return::notice( 43 );
		$this->assertSame( '', ob_get_clean() );
	}

	public function test_a_payment_paid_on_the_second_read_completes_the_order(): void {
		self::answer( 200, array( 'status' => 'open' ) + self::SECOND );
		self::answer( 200, self::SECOND );
		$this->assertSame( 'paid', $this->returned()->settle( wc_get_order( 42 ) ) );
		$this->assertSame( array( 1 ), $this->waits );
		$this->assertSame( 'processing', self::stored()['status'] );
	}

	public function test_a_failed_current_payment_leaves_the_page_to_say_failed(): void {
		self::answer( 200, array( 'status' => 'failed' ) + self::SECOND );
		$order = wc_get_order( 42 );
		$this->assertSame( 'not paid', $this->returned()->settle( $order ) );
		$this->assertSame( 'failed', RPS_Return::shown_status( 'failed', $order ) );
		$this->assertSame( 0, self::stored()['payment_complete_calls'] );
	}

	public function test_a_service_that_does_not_answer_leaves_the_page_as_it_is_at_once_and_is_not_asked_again_for_a_minute(): void {
		self::no_answer();
		$this->assertSame( 'unknown', $this->returned()->settle( wc_get_order( 42 ) ) );
		$this->assertSame( array(), $this->waits );
		$this->assertSame( 60, RPS_Stub_State::$transient_expirations[ RPS_Api_Client::UNREACHABLE_TRANSIENT ] );
		$this->assertSame( 'unknown', $this->returned()->settle( wc_get_order( 42 ) ) );
		$this->assertCount( 1, RPS_Stub_State::$requests, 'the second return does not wait for the service again' );
		$this->assertSame( 'failed', self::stored()['status'] );
	}

	public function test_the_page_hook_acts_only_on_the_order_received_page_with_the_orders_key_and_never_on_what_the_address_says(): void {
		RPS_Stub_State::$query_vars['order-received'] = 42;
		$_GET = array( 'key' => 'wc_order_abc123', 'status' => 'paid' );
		RPS_Return::on_order_received();
		$this->assertSame( array(), RPS_Stub_State::$requests, 'not the order-received page' );

		RPS_Stub_State::$order_received_page = true;
		$_GET['key'] = 'wc_order_wrong';
		RPS_Return::on_order_received();
		$this->assertSame( array(), RPS_Stub_State::$requests, 'another key' );

		$_GET['key'] = 'wc_order_abc123';
		self::answer( 200, array( 'status' => 'failed' ) + self::SECOND );
		RPS_Return::on_order_received();
		$this->assertSame( array( 'GET /api/v2/payments/pay_second' ), self::requests_made() );
		$this->assertSame( 'failed', self::stored()['status'], 'the address said paid; the service did not' );
		$_GET = array();
	}

	public function test_an_order_of_another_gateway_or_a_payment_not_made_for_it_is_left_alone(): void {
		$this->assertSame( 'not ours', $this->returned()->settle( self::order( array( 'payment_method' => 'bacs' ) ) ) );
		$this->assertSame( 'not ours', $this->returned()->settle( self::order( array( 'meta' => array( RPS_Callback::CURRENT_PAYMENT_META => 'pay_other' ) ) ) ) );
		$this->assertSame( array(), RPS_Stub_State::$requests );
	}

	public function test_a_late_failure_of_the_first_payment_while_the_second_is_under_way_only_makes_a_note(): void {
		$order = wc_get_order( 42 );
		$order->update_status( 'pending' );
		self::answer( 200, array( 'id' => 'pay_first', 'status' => 'failed' ) );
		$event = json_encode( array( 'id' => 'pay_first', 'event' => 'payment.failed', 'status' => 'failed' ) );
		$t     = (string) time();
		$sig   = 't=' . $t . ',v1=' . hash_hmac( 'sha256', $t . '.' . $event, self::SECRET );
		$this->assertSame( array( 200, 'noted failed' ), ( new RPS_Callback( RPS_Api_Client::from_settings(), self::SECRET ) )->process( $event, $sig, 42, 'wc_order_abc123' ) );
		$this->assertSame( 'pending', self::stored()['status'] );
		$notes = self::stored()['notes'];
		$this->assertStringContainsString( 'pay_first is failed', (string) end( $notes ) );
	}
}
