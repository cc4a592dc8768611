<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

/**
 * The store disconnected at the service (`cli shops disconnect`) and the plugin deleted: the plugin
 * learns the state from the service and degrades to plain payments; deleting it disconnects the store.
 */
final class ConnectionTest extends StubTestCase {

	private const CUSTOMER      = array( 'id' => 'cus_1', 'provider_customer_id' => 'cst_1', 'email' => 'anna@example.nl' );
	private const PAYMENT       = array( 'id' => 'pay_first', 'provider_payment_id' => 'tr_1', 'status' => 'open', 'provider_checkout_url' => 'https://rps.example/sandbox/checkout/tr_1' );
	private const NOT_CONNECTED = array(
		'status' => 409,
		'error'  => 'Could not create payment: no store is connected to this account; connect one with POST /api/v2/shop first',
		'code'   => 'shop_not_connected',
	);

	protected function setUp(): void {
		parent::setUp();
		RPS_Stub_State::$transients[ RPS_Settings::METHODS_TRANSIENT ] = array( 'ideal', 'creditcard' );
		unset( $_POST['rps_method'] );
	}

	public function test_a_checkout_after_the_store_was_disconnected_at_the_service_still_takes_a_plain_payment_and_remembers_it(): void {
		self::order();
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 409, self::NOT_CONNECTED );
		self::answer( 201, self::PAYMENT );

		$result = ( new RPS_Gateway() )->process_payment( 42 );

		$this->assertSame( array( 'result' => 'success', 'redirect' => self::PAYMENT['provider_checkout_url'] ), $result );
		$this->assertSame( array(), RPS_Stub_State::$notices, 'the buyer sees no error' );
		$posts = array_values( array_filter( RPS_Stub_State::$requests, static fn ( array $r ): bool => 'POST' === $r['args']['method'] && str_ends_with( $r['url'], '/api/v2/payments' ) ) );
		$this->assertCount( 2, $posts );
		$this->assertSame( 42, json_decode( (string) $posts[0]['args']['body'], true )['shop_order_id'] );
		$this->assertArrayNotHasKey( 'shop_order_id', json_decode( (string) $posts[1]['args']['body'], true ) );
		$this->assertSame( $posts[0]['args']['headers']['Idempotency-Key'] . '-plain', $posts[1]['args']['headers']['Idempotency-Key'], 'another body, another key' );
		$this->assertSame( 'no', RPS_Settings::get( 'store_connected' ) );
		$this->assertSame( 'yes', RPS_Settings::get( 'connection_lost' ) );
		$this->assertSame( 'warning', RPS_Stub_State::$logs[0][0] );
		$this->assertStringContainsString( 'not connected', RPS_Stub_State::$logs[0][1] );
		$this->assertStringContainsString( 'no longer connected', RPS_Admin_Page::notices_html() );

		// The next checkout does not ask with shop_order_id again.
		self::order( array( 'id' => 43 ) );
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 201, array( 'id' => 'pay_43' ) + self::PAYMENT );
		( new RPS_Gateway() )->process_payment( 43 );
		$this->assertSame( 'POST /api/v2/payments', self::requests_made()[4] );
		$this->assertCount( 5, RPS_Stub_State::$requests );
		$this->assertMatchesRegularExpression( '/-order-43-1-any-plain$/', RPS_Stub_State::$requests[4]['args']['headers']['Idempotency-Key'] );
	}

	public function test_a_store_connected_before_subscription_callbacks_is_asked_to_connect_again(): void {
		RPS_Settings::update( array( 'store_connected' => 'yes', 'event_signing_secret' => '' ) );
		$this->assertStringContainsString( 'connected by an earlier version of the plugin', RPS_Admin_Page::notices_html() );
		RPS_Settings::update( array( 'event_signing_secret' => 'whsec_new' ) );
		$this->assertSame( '', RPS_Admin_Page::notices_html(), 'connected again: the service has the callback address' );
		RPS_Settings::update( array( 'store_connected' => 'no', 'event_signing_secret' => '' ) );
		$this->assertSame( '', RPS_Admin_Page::notices_html(), 'a store never connected is not told to connect again' );
	}

	public function test_other_refusals_are_not_taken_for_a_lost_connection(): void {
		self::order();
		self::answer( 200, array( 'data' => array( self::CUSTOMER ) ) );
		self::answer( 409, array( 'status' => 409, 'error' => 'Payment pay_x of order 42 is pending', 'code' => 'payment_in_progress' ) );
		$this->assertSame( array( 'result' => 'failure' ), ( new RPS_Gateway() )->process_payment( 42 ) );
		$this->assertCount( 2, RPS_Stub_State::$requests, 'no plain payment behind the service\'s back' );
		$this->assertSame( 'yes', RPS_Settings::get( 'store_connected' ) );
		$this->assertSame( '', RPS_Admin_Page::notices_html() );
	}

	public function test_a_not_connected_answer_to_any_call_forgets_the_connection(): void {
		self::answer( 409, array( 'status' => 409, 'error' => 'Could not start the sync: no store is connected', 'code' => 'shop_not_connected' ) );
		try {
			RPS_Api_Client::from_settings()->post( '/api/v2/sync/products', array() );
			$this->fail( 'the 409 is an error' );
		} catch ( RPS_Api_Error $error ) {
			$this->assertSame( 'shop_not_connected', $error->error_code );
		}
		$this->assertSame( 'no', RPS_Settings::get( 'store_connected' ) );
		$this->assertSame( 'yes', RPS_Settings::get( 'connection_lost' ) );
	}

	public function test_the_admin_page_shows_the_connection_as_the_service_has_it(): void {
		$api = RPS_Api_Client::from_settings()->quick();
		self::answer( 200, array( 'status' => 'connected', 'url' => 'https://shop.example' ) );
		$this->assertSame( 'This store is connected.', RPS_Admin_Page::connection_state( $api ) );
		$this->assertSame( 3, RPS_Stub_State::$requests[0]['args']['timeout'] );
		$this->assertSame( 'yes', RPS_Settings::get( 'store_connected' ) );

		self::no_answer();
		$this->assertStringContainsString( 'could not be reached', RPS_Admin_Page::connection_state( $api ) );
		$this->assertSame( 'yes', RPS_Settings::get( 'store_connected' ), 'no answer is not "disconnected"' );
		$this->assertStringContainsString( 'did not answer in time', RPS_Admin_Page::notices_html() );
		unset( RPS_Stub_State::$transients[ RPS_Api_Client::UNREACHABLE_TRANSIENT ] );

		self::answer( 200, array( 'status' => 'disconnected', 'url' => 'https://shop.example' ) );
		$this->assertStringContainsString( 'This store is not connected to the service', RPS_Admin_Page::connection_state( $api ) );
		$this->assertSame( 'no', RPS_Settings::get( 'store_connected' ) );
		$this->assertSame( 'yes', RPS_Settings::get( 'connection_lost' ) );

		self::answer( 404, array( 'status' => 404, 'error' => 'Shop not found', 'code' => 'not_found' ) );
		$this->assertStringContainsString( 'This store is not connected to the service', RPS_Admin_Page::connection_state( $api ) );
	}

	public function test_connecting_again_clears_the_lost_connection_notice(): void {
		RPS_Settings::connection_lost();
		$GLOBALS['wpdb'] = new RPS_Stub_Wpdb();
		self::answer( 200, array( 'status' => 'connected', 'event_signing_secret' => self::SECRET, 'webhooks' => array( 'state' => 'registered' ) ) );
		( new RPS_Store_Connector( RPS_Api_Client::from_settings() ) )->connect();
		unset( $GLOBALS['wpdb'] );
		$this->assertSame( 'yes', RPS_Settings::get( 'store_connected' ) );
		$this->assertSame( 'no', RPS_Settings::get( 'connection_lost' ) );
		$this->assertSame( '', RPS_Admin_Page::notices_html() );
	}

	public function test_deleting_the_plugin_disconnects_the_store_at_the_service_then_removes_the_key_and_the_options(): void {
		RPS_Settings::update( array( 'rest_key_id' => 7 ) );
		RPS_Stub_State::$transients[ RPS_Api_Client::UNREACHABLE_TRANSIENT ] = time(); // A page found it down a minute ago.
		$GLOBALS['wpdb'] = new RPS_Stub_Wpdb();
		RPS_Subscription_Events::register();
		self::answer( 200, array( 'status' => 'disconnected' ) );

		self::uninstall();

		$this->assertSame( array( 'DELETE /api/v2/shop' ), self::requests_made() );
		$this->assertLessThanOrEqual( 3, RPS_Stub_State::$requests[0]['args']['timeout'] );
		$this->assertSame( array( array( 'wp_woocommerce_api_keys', array( 'key_id' => 7 ) ) ), $GLOBALS['wpdb']->deleted );
		$this->assertCount( 1, $GLOBALS['wpdb']->queries, 'the handled event ids, all of them' );
		$this->assertStringContainsString( "LIKE 'rps\\_event\\_%'", $GLOBALS['wpdb']->queries[0] );
		$this->assertFalse( wp_next_scheduled( RPS_Subscription_Events::PRUNE_HOOK ) );
		unset( $GLOBALS['wpdb'] );
		$this->assertArrayNotHasKey( RPS_Settings::OPTION, RPS_Stub_State::$options );
		$this->assertSame( array(), RPS_Stub_State::$transients );
	}

	public function test_uninstall_goes_on_when_the_store_is_disconnected_already_or_the_service_does_not_answer(): void {
		self::answer( 404, array( 'status' => 404, 'error' => 'Shop not found', 'code' => 'not_found' ) );
		$this->assertSame( 'not connected', RPS_Store_Connector::disconnect_on_uninstall( RPS_Api_Client::from_settings()->quick() ) );
		self::no_answer();
		$this->assertSame( 'failed', RPS_Store_Connector::disconnect_on_uninstall( RPS_Api_Client::from_settings()->quick() ) );
		RPS_Settings::update( array( 'store_connected' => 'no' ) );
		$this->assertSame( 'skipped', RPS_Store_Connector::disconnect_on_uninstall( RPS_Api_Client::from_settings()->quick() ), 'a store this plugin did not connect is left alone' );
		$this->assertCount( 2, RPS_Stub_State::$requests );
	}

	private static function uninstall(): void {
		defined( 'WP_UNINSTALL_PLUGIN' ) || define( 'WP_UNINSTALL_PLUGIN', 'recurring-payments-bridge/recurring-payments-bridge.php' );
		require dirname( __DIR__, 3 ) . '/recurring-payments-bridge/uninstall.php';
	}
}
