<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

/**
 * The plugin never freezes the checkout or the order screen: what it asks while a page renders waits
 * 3 s at most, and after no answer it does not ask again for a minute; the gateway then hides itself.
 */
final class ResilienceTest extends StubTestCase {

	protected function setUp(): void {
		parent::setUp();
		update_option( 'woocommerce_rps_settings', array( 'enabled' => 'yes' ) );
	}

	public function test_the_methods_are_asked_with_a_short_timeout_while_the_checkout_renders(): void {
		self::answer( 200, array( 'data' => array( array( 'id' => 'ideal' ) ) ) );
		$this->assertTrue( ( new RPS_Gateway() )->is_available() );
		$this->assertSame( array( 'GET /api/v2/methods' ), self::requests_made() );
		$this->assertLessThanOrEqual( 3, RPS_Stub_State::$requests[0]['args']['timeout'] );
		$this->assertSame( HOUR_IN_SECONDS, RPS_Stub_State::$transient_expirations[ RPS_Settings::METHODS_TRANSIENT ] );
	}

	public function test_a_service_that_does_not_answer_hides_the_gateway_and_is_not_asked_again_for_a_minute(): void {
		self::no_answer();
		$this->assertFalse( ( new RPS_Gateway() )->is_available() );
		$this->assertSame( 60, RPS_Stub_State::$transient_expirations[ RPS_Settings::METHODS_FAILED_TRANSIENT ] );
		$this->assertSame( 60, RPS_Stub_State::$transient_expirations[ RPS_Api_Client::UNREACHABLE_TRANSIENT ] );
		$this->assertSame( 'error', RPS_Stub_State::$logs[0][0] );

		// The next page views within the minute: no request, no wait, still hidden.
		$this->assertFalse( ( new RPS_Gateway() )->is_available() );
		$this->assertSame( array(), RPS_Gateway::offered_methods( RPS_Api_Client::from_settings() ) );
		$this->assertCount( 1, RPS_Stub_State::$requests );
		$this->assertStringContainsString( 'other payment methods are not affected', RPS_Admin_Page::notices_html() );

		// After the minute (the transients expired) it is asked again and shown.
		RPS_Stub_State::$transients = array();
		self::answer( 200, array( 'data' => array( array( 'id' => 'ideal' ) ) ) );
		$this->assertTrue( ( new RPS_Gateway() )->is_available() );
	}

	public function test_a_service_outage_answer_counts_as_no_answer_but_a_refusal_does_not_stop_other_calls(): void {
		self::answer( 503, array( 'status' => 503, 'error' => 'Service unavailable' ) );
		$this->assertFalse( ( new RPS_Gateway() )->is_available() );
		$this->assertArrayHasKey( RPS_Api_Client::UNREACHABLE_TRANSIENT, RPS_Stub_State::$transients );

		RPS_Stub_State::$transients = array();
		self::answer( 401, array( 'status' => 401, 'error' => 'Unauthenticated', 'code' => 'unauthenticated' ) );
		$this->assertFalse( ( new RPS_Gateway() )->is_available() );
		$this->assertArrayHasKey( RPS_Settings::METHODS_FAILED_TRANSIENT, RPS_Stub_State::$transients, 'not asked again for a minute either' );
		$this->assertArrayNotHasKey( RPS_Api_Client::UNREACHABLE_TRANSIENT, RPS_Stub_State::$transients, 'the service answered' );
	}

	public function test_the_order_box_waits_three_seconds_at_most_and_not_at_all_while_the_service_is_known_down(): void {
		$order = self::order();
		self::no_answer();
		$this->assertStringContainsString( 'could not be reached', RPS_Order_Box::html( $order, RPS_Api_Client::from_settings()->quick() ) );
		$this->assertSame( 3, RPS_Stub_State::$requests[0]['args']['timeout'] );
		$this->assertStringContainsString( 'could not be reached', RPS_Order_Box::html( $order, RPS_Api_Client::from_settings()->quick() ) );
		$this->assertCount( 1, RPS_Stub_State::$requests, 'the second screen did not wait' );
	}

	public function test_paying_is_not_held_to_the_short_timeout_nor_skipped_by_the_negative_cache(): void {
		// The buyer clicked "Place order": a lost answer there is an unknown outcome, so it waits longer.
		RPS_Stub_State::$transients[ RPS_Settings::METHODS_TRANSIENT ]   = array( 'ideal' );
		RPS_Stub_State::$transients[ RPS_Api_Client::UNREACHABLE_TRANSIENT ] = time();
		self::order();
		self::answer( 200, array( 'data' => array( array( 'provider_customer_id' => 'cst_1' ) ) ) );
		self::answer( 201, array( 'id' => 'pay_1', 'status' => 'open', 'provider_checkout_url' => 'https://rps.example/sandbox/checkout/tr_1' ) );
		$this->assertSame( 'success', ( new RPS_Gateway() )->process_payment( 42 )['result'] );
		$this->assertSame( 20, RPS_Stub_State::$requests[1]['args']['timeout'] );
	}
}
