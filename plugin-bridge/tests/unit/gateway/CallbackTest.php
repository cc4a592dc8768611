<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

final class CallbackTest extends StubTestCase {

	private const PAID = array( 'id' => 'pay_first', 'provider_payment_id' => 'tr_1', 'status' => 'paid' );

	protected function setUp(): void {
		parent::setUp();
		self::order( array( 'meta' => array( RPS_Callback::PAYMENT_IDS_META => array( 'pay_first' ) ) ) );
	}

	private static function event( string $status, string $id = 'pay_first' ): string {
		return json_encode( array( 'id' => $id, 'event' => 'payment.' . $status, 'status' => $status ) );
	}

	private static function sign( string $body, ?int $at = null, string $secret = self::SECRET ): string {
		$t = (string) ( $at ?? time() );
		return 't=' . $t . ',v1=' . hash_hmac( 'sha256', $t . '.' . $body, $secret );
	}

	/** @return array{0: int, 1: string} */
	private static function deliver( string $body, ?string $signature = null, string $key = 'wc_order_abc123' ): array {
		return ( new RPS_Callback( RPS_Api_Client::from_settings(), self::SECRET ) )->process( $body, $signature ?? self::sign( $body ), 42, $key );
	}

	public function test_a_signed_paid_event_completes_the_order_with_the_status_read_from_the_service(): void {
		self::answer( 200, self::PAID );
		$this->assertSame( array( 200, 'completed' ), self::deliver( self::event( 'paid' ) ) );
		$this->assertSame( array( 'GET /api/v2/payments/pay_first' ), self::requests_made() );
		$order = self::stored();
		$this->assertSame( 'processing', $order['status'] );
		$this->assertSame( 'tr_1', $order['transaction_id'] );
		$this->assertSame( 1, $order['payment_complete_calls'] );
		$this->assertSame( array( 'Paid: payment pay_first (tr_1).' ), $order['notes'] );
		$this->assertArrayNotHasKey( 'rps_completing_42', RPS_Stub_State::$options, 'the claim is released' );
	}

	public function test_the_same_paid_event_again_completes_nothing_more(): void {
		self::answer( 200, self::PAID );
		self::deliver( self::event( 'paid' ) );
		self::answer( 200, self::PAID );
		$this->assertSame( array( 200, 'already paid' ), self::deliver( self::event( 'paid' ) ) );
		$this->assertSame( 1, self::stored()['payment_complete_calls'] );
		$this->assertCount( 1, self::stored()['notes'] );
	}

	public function test_a_paid_event_while_another_request_is_completing_the_order_does_not_complete_it_twice(): void {
		add_option( 'rps_completing_42', time() );
		self::answer( 200, self::PAID );
		$this->assertSame( array( 200, 'being completed' ), self::deliver( self::event( 'paid' ) ) );
		$this->assertSame( 0, self::stored()['payment_complete_calls'] );
	}

	public function test_a_claim_left_by_a_request_that_died_is_taken_over(): void {
		add_option( 'rps_completing_42', time() - 120 );
		self::answer( 200, self::PAID );
		$this->assertSame( array( 200, 'completed' ), self::deliver( self::event( 'paid' ) ) );
		$this->assertSame( 'processing', self::stored()['status'] );
	}

	public function test_a_bad_or_missing_or_old_signature_is_refused_and_nothing_is_read_or_changed(): void {
		$body = self::event( 'paid' );
		$this->assertSame( 401, self::deliver( $body, self::sign( $body, null, 'whsec_another_secret' ) )[0] );
		$this->assertSame( 401, self::deliver( $body, '' )[0] );
		$this->assertSame( 401, self::deliver( $body, self::sign( $body, time() - 600 ) )[0] );
		$this->assertSame( 401, self::deliver( $body, self::sign( self::event( 'failed' ) ) )[0], 'signature of another body' );
		$this->assertSame( array(), RPS_Stub_State::$requests );
		$this->assertSame( 'pending', self::stored()['status'] );
		$this->assertSame( 'warning', RPS_Stub_State::$logs[0][0] );
	}

	public function test_an_event_that_says_paid_while_the_service_says_open_changes_nothing(): void {
		self::answer( 200, array( 'status' => 'open' ) + self::PAID );
		$this->assertSame( array( 200, 'status open' ), self::deliver( self::event( 'paid' ) ) );
		$this->assertSame( 'pending', self::stored()['status'] );
		$this->assertSame( 0, self::stored()['payment_complete_calls'] );
	}

	public function test_a_late_failure_after_paid_changes_nothing(): void {
		self::answer( 200, self::PAID );
		self::deliver( self::event( 'paid' ) );
		self::answer( 200, array( 'status' => 'failed' ) + self::PAID );
		$this->assertSame( array( 200, 'already paid' ), self::deliver( self::event( 'failed' ) ) );
		$this->assertSame( 'processing', self::stored()['status'] );
		$this->assertCount( 1, self::stored()['notes'] );
	}

	public function test_a_failure_of_an_unpaid_order_marks_it_failed_with_a_note_and_leaves_it_payable(): void {
		self::answer( 200, array( 'status' => 'failed' ) + self::PAID );
		$this->assertSame( array( 200, 'noted failed' ), self::deliver( self::event( 'failed' ) ) );
		$this->assertSame( 'failed', self::stored()['status'] );
		$this->assertSame( array( 'Payment pay_first is failed; the order can still be paid.' ), self::stored()['notes'] );
	}

	public function test_events_of_other_payments_or_orders_are_answered_200_and_ignored(): void {
		$this->assertSame( array( 200, 'not a payment of this order' ), self::deliver( self::event( 'paid', 'pay_other' ) ) );
		$this->assertSame( array( 200, 'unknown order' ), self::deliver( self::event( 'paid' ), null, 'wc_order_wrong' ) );
		$this->assertSame( 400, self::deliver( '{"id":"tr_x"}' )[0] );
		$this->assertSame( array(), RPS_Stub_State::$requests );
	}

	public function test_when_the_service_cannot_be_asked_the_answer_is_503_so_the_event_is_sent_again(): void {
		self::no_answer();
		$this->assertSame( array( 503, 'service unavailable' ), self::deliver( self::event( 'paid' ) ) );
		$this->assertSame( 'pending', self::stored()['status'] );
	}
}
