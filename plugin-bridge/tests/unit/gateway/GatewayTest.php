<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

final class GatewayTest extends StubTestCase {

	private const CUSTOMER = array( 'id' => 'cus_1', 'provider_customer_id' => 'cst_1', 'email' => 'anna@example.nl' );
	private const PAYMENT  = array( 'id' => 'pay_first', 'provider_payment_id' => 'tr_1', 'status' => 'open', 'provider_checkout_url' => 'https://rps.example/sandbox/checkout/tr_1' );

	protected function setUp(): void {
		parent::setUp();
		RPS_Stub_State::$transients[ RPS_Settings::METHODS_TRANSIENT ] = array( 'ideal', 'creditcard' );
		unset( $_POST['rps_method'] );
	}

	public function test_process_payment_finds_the_customer_and_makes_a_payment_for_the_order_then_redirects_to_the_checkout(): void {
		$order = self::order();
		$_POST['rps_method'] = 'ideal';
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 201, self::PAYMENT );

		$result = ( new RPS_Gateway() )->process_payment( 42 );

		$this->assertSame( array( 'result' => 'success', 'redirect' => self::PAYMENT['provider_checkout_url'] ), $result );
		$this->assertSame( array( 'GET /api/v2/customers?email=anna%40example.nl&per_page=1', 'POST /api/v2/payments' ), self::requests_made() );
		$this->assertSame(
			array(
				'amount'               => 19.99,
				'currency'             => 'EUR',
				'provider_customer_id' => 'cst_1',
				'description'          => 'Order 42',
				'redirect_url'         => 'https://shop.example/checkout/order-received/42/?key=wc_order_abc123',
				'webhook_url'          => 'https://shop.example/wc-api/rps_payment/?order_id=42&key=wc_order_abc123',
				'method'               => 'ideal',
				'shop_order_id'        => 42,
			),
			self::body_sent_to( 'POST', '/api/v2/payments' )
		);
		$headers = RPS_Stub_State::$requests[1]['args']['headers'];
		$this->assertSame( 'Bearer ' . self::TOKEN, $headers['Authorization'] );
		$this->assertMatchesRegularExpression( '/^wc-[0-9a-f]{12}-order-42-1-ideal$/', $headers['Idempotency-Key'] );
		$this->assertSame( array( 'pay_first' ), self::stored()['meta'][ RPS_Callback::PAYMENT_IDS_META ] );
		$this->assertSame( array(), RPS_Stub_State::$notices );
	}

	public function test_a_new_buyer_is_created_with_the_lower_cased_address_and_a_key_per_address(): void {
		self::order();
		self::answer( 200, array( 'data' => array() ) );
		self::answer( 201, self::CUSTOMER );
		self::answer( 201, self::PAYMENT );

		( new RPS_Gateway() )->process_payment( 42 );

		$this->assertSame( array( 'first_name' => 'Anna', 'last_name' => 'Bakker', 'email' => 'anna@example.nl' ), self::body_sent_to( 'POST', '/api/v2/customers' ) );
		$this->assertSame( 'wc-customer-' . hash( 'sha256', 'anna@example.nl' ), RPS_Stub_State::$requests[1]['args']['headers']['Idempotency-Key'] );
		$this->assertArrayNotHasKey( 'method', self::body_sent_to( 'POST', '/api/v2/payments' ), 'no method chosen: the provider offers its own choice' );
	}

	public function test_a_service_refusal_shows_a_friendly_notice_and_is_logged_and_nothing_is_recorded_as_a_payment(): void {
		self::order();
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 422, array( 'status' => 422, 'error' => 'Could not create payment. Some fields contain invalid data', 'code' => 'validation_failed', 'fields' => array( 'amount' => array( 'The amount must be the order total 25.00.' ) ) ) );

		$result = ( new RPS_Gateway() )->process_payment( 42 );

		$this->assertSame( array( 'result' => 'failure' ), $result );
		$this->assertSame( array( array( 'The payment could not be started. Please check your details or choose another payment method.', 'error' ) ), RPS_Stub_State::$notices );
		$this->assertCount( 1, RPS_Stub_State::$logs );
		$this->assertSame( 'error', RPS_Stub_State::$logs[0][0] );
		$this->assertStringContainsString( 'HTTP 422', RPS_Stub_State::$logs[0][1] );
		$this->assertStringContainsString( 'amount: The amount must be the order total 25.00.', RPS_Stub_State::$logs[0][1] );
		$this->assertStringNotContainsString( 'anna', strtolower( RPS_Stub_State::$logs[0][1] ), 'no e-mail address in a log line' );
		$this->assertArrayNotHasKey( RPS_Callback::PAYMENT_IDS_META, self::stored()['meta'] );
	}

	public function test_a_lost_answer_asks_the_buyer_to_retry_and_the_retry_carries_the_same_key(): void {
		self::order();
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::no_answer();
		$gateway = new RPS_Gateway();

		$this->assertSame( array( 'result' => 'failure' ), $gateway->process_payment( 42 ) );
		$this->assertSame( 'The payment could not be started just now. Please try again in a moment.', RPS_Stub_State::$notices[0][0] );

		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 201, self::PAYMENT );
		$this->assertSame( 'success', $gateway->process_payment( 42 )['result'] );
		$keys = array_values( array_filter( array_map( static fn ( array $r ) => $r['args']['headers']['Idempotency-Key'] ?? null, RPS_Stub_State::$requests ) ) );
		$this->assertCount( 2, $keys );
		$this->assertSame( $keys[0], $keys[1] );
	}

	public function test_a_second_click_while_the_payment_is_open_goes_back_to_its_checkout_and_a_failed_one_makes_a_new_payment_under_a_new_key(): void {
		self::order();
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 201, self::PAYMENT );
		$gateway = new RPS_Gateway();
		$gateway->process_payment( 42 );

		self::answer( 200, self::PAYMENT );
		$this->assertSame( self::PAYMENT['provider_checkout_url'], $gateway->process_payment( 42 )['redirect'] );
		$this->assertSame( 'GET /api/v2/payments/pay_first', self::requests_made()[2] );
		$this->assertCount( 3, RPS_Stub_State::$requests, 'no second payment' );

		self::answer( 200, array( 'status' => 'failed' ) + self::PAYMENT );
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 201, array( 'id' => 'pay_second', 'provider_checkout_url' => 'https://rps.example/sandbox/checkout/tr_2' ) + self::PAYMENT );
		$this->assertSame( 'https://rps.example/sandbox/checkout/tr_2', $gateway->process_payment( 42 )['redirect'] );
		$this->assertMatchesRegularExpression( '/-order-42-2-any$/', RPS_Stub_State::$requests[5]['args']['headers']['Idempotency-Key'] );
		$this->assertSame( array( 'pay_first', 'pay_second' ), self::stored()['meta'][ RPS_Callback::PAYMENT_IDS_META ] );
	}

	public function test_a_retry_that_picks_another_method_is_another_request_under_its_own_key(): void {
		self::order();
		$_POST['rps_method'] = 'ideal';
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::no_answer();
		$gateway = new RPS_Gateway();
		$gateway->process_payment( 42 );

		$_POST['rps_method'] = 'creditcard';
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 201, self::PAYMENT );
		$this->assertSame( 'success', $gateway->process_payment( 42 )['result'] );
		$last = end( RPS_Stub_State::$requests );
		$this->assertSame( 'creditcard', json_decode( (string) $last['args']['body'], true )['method'] );
		$keys = array_values( array_filter( array_map( static fn ( array $r ) => $r['args']['headers']['Idempotency-Key'] ?? null, RPS_Stub_State::$requests ) ) );
		$this->assertMatchesRegularExpression( '/-order-42-1-ideal$/', $keys[0] );
		$this->assertMatchesRegularExpression( '/-order-42-1-creditcard$/', $keys[1] );
	}

	public function test_an_open_payment_of_another_method_is_not_reused(): void {
		self::order();
		$_POST['rps_method'] = 'ideal';
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 201, array( 'method' => 'ideal' ) + self::PAYMENT );
		$gateway = new RPS_Gateway();
		$gateway->process_payment( 42 );

		self::answer( 200, array( 'method' => 'ideal' ) + self::PAYMENT );
		$this->assertSame( self::PAYMENT['provider_checkout_url'], $gateway->process_payment( 42 )['redirect'], 'the same method: back to its checkout' );

		$_POST['rps_method'] = 'creditcard';
		self::answer( 200, array( 'method' => 'ideal' ) + self::PAYMENT );
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 201, array( 'id' => 'pay_card', 'provider_checkout_url' => 'https://rps.example/sandbox/checkout/tr_card' ) + self::PAYMENT );
		$this->assertSame( 'https://rps.example/sandbox/checkout/tr_card', $gateway->process_payment( 42 )['redirect'] );
		$this->assertSame( array( 'pay_first', 'pay_card' ), self::stored()['meta'][ RPS_Callback::PAYMENT_IDS_META ] );
	}

	public function test_without_a_connected_store_the_payment_carries_no_shop_order_id(): void {
		RPS_Settings::update( array( 'store_connected' => 'no' ) );
		self::order();
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 201, self::PAYMENT );
		( new RPS_Gateway() )->process_payment( 42 );
		$this->assertArrayNotHasKey( 'shop_order_id', self::body_sent_to( 'POST', '/api/v2/payments' ) );
	}

	public function test_the_gateway_is_offered_only_when_enabled_configured_and_the_account_has_methods(): void {
		update_option( 'woocommerce_rps_settings', array( 'enabled' => 'yes' ) );
		$this->assertTrue( ( new RPS_Gateway() )->is_available() );
		RPS_Stub_State::$transients = array();
		self::answer( 200, array( 'data' => array() ) );
		$this->assertFalse( ( new RPS_Gateway() )->is_available() );
		RPS_Settings::update( array( 'api_token' => '' ) );
		$this->assertFalse( ( new RPS_Gateway() )->is_available() );
	}
}
