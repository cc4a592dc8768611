<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

/** WooCommerce Subscriptions as far as the cart asks it: which products are its subscriptions. */
final class WC_Subscriptions_Product {
	/** @var list<int> */
	public static array $subscriptions = array();
	public static function is_subscription( WC_Product $product ): bool {
		return in_array( $product->get_id(), self::$subscriptions, true );
	}
}

final class CartGatewaysTest extends StubTestCase {

	protected function setUp(): void {
		parent::setUp();
		RPS_Stub_State::$options['woocommerce_rps_settings'] = array( 'enabled' => 'yes' );
		WC_Subscriptions_Product::$subscriptions              = array();
	}

	private static function recurring( int $id = 7, array $meta = array() ): WC_Product {
		$product       = new WC_Product( $id, 'Coffee box', '20.00' );
		$product->meta = $meta + array( '_rps_recurring' => 'yes', '_rps_interval' => 'month', '_rps_interval_count' => '1', '_rps_length' => '3' );
		return $product;
	}

	/** @param list<WC_Product> $products */
	private static function cart( array $products ): WC_Cart {
		$items = array();
		foreach ( $products as $index => $product ) {
			$items[ 'key' . $index ] = array( 'data' => $product, 'quantity' => 1, 'line_subtotal' => (float) $product->get_price() );
		}
		return RPS_Stub_State::$cart = new WC_Cart( $items );
	}

	/** @return array<string, WC_Payment_Gateway> */
	private static function gateways(): array {
		return array( 'bacs' => new WC_Payment_Gateway(), 'rps' => new WC_Payment_Gateway(), 'cod' => new WC_Payment_Gateway() );
	}

	public function test_a_cart_with_a_recurring_product_offers_only_our_gateway_even_with_one_time_lines_in_it(): void {
		self::cart( array( self::recurring(), new WC_Product( 8, 'Mug', '9.99' ) ) );
		$this->assertSame( array( 'rps' ), array_keys( RPS_Cart_Gateways::available_gateways( self::gateways() ) ) );
	}

	public function test_a_cart_without_recurring_products_keeps_every_gateway(): void {
		self::cart( array( new WC_Product( 8, 'Mug', '9.99' ) ) );
		$this->assertSame( array( 'bacs', 'rps', 'cod' ), array_keys( RPS_Cart_Gateways::available_gateways( self::gateways() ) ) );
		RPS_Stub_State::$cart = null;
		$this->assertSame( array( 'bacs', 'rps', 'cod' ), array_keys( RPS_Cart_Gateways::available_gateways( self::gateways() ) ), 'no cart at all' );
	}

	public function test_the_admin_screens_keep_every_gateway(): void {
		self::cart( array( self::recurring() ) );
		RPS_Stub_State::$is_admin = true;
		$this->assertCount( 3, RPS_Cart_Gateways::available_gateways( self::gateways() ) );
	}

	public function test_a_recurring_cart_without_our_gateway_available_offers_none_rather_than_one_that_cannot_make_a_mandate(): void {
		self::cart( array( self::recurring() ) );
		$gateways = self::gateways();
		unset( $gateways['rps'] );
		$this->assertSame( array(), RPS_Cart_Gateways::available_gateways( $gateways ) );
	}

	public function test_a_recurring_cart_asks_the_service_for_the_methods_that_can_create_a_mandate_and_caches_them_apart(): void {
		RPS_Stub_State::$transients[ RPS_Settings::METHODS_TRANSIENT ] = array( 'ideal', 'creditcard', 'banktransfer' );
		self::cart( array( self::recurring() ) );
		self::answer( 200, array( 'data' => array( array( 'id' => 'ideal' ), array( 'id' => 'creditcard' ) ) ) );
		$gateway = new RPS_Gateway();

		ob_start();
		$gateway->payment_fields();
		$html = (string) ob_get_clean();

		$this->assertSame( array( 'GET /api/v2/methods?sequence_type=first' ), self::requests_made() );
		$this->assertStringContainsString( 'value="creditcard"', $html );
		$this->assertStringNotContainsString( 'banktransfer', $html );
		$this->assertSame( array( 'ideal', 'creditcard' ), RPS_Stub_State::$transients[ RPS_Settings::FIRST_METHODS_TRANSIENT ] );
		$this->assertTrue( $gateway->is_available() );
		$this->assertCount( 1, RPS_Stub_State::$requests, 'cached: asked once' );
	}

	public function test_a_one_time_cart_keeps_the_plain_method_list(): void {
		RPS_Stub_State::$transients[ RPS_Settings::METHODS_TRANSIENT ] = array( 'ideal', 'banktransfer' );
		self::cart( array( new WC_Product( 8, 'Mug', '9.99' ) ) );

		ob_start();
		( new RPS_Gateway() )->payment_fields();
		$html = (string) ob_get_clean();

		$this->assertStringContainsString( 'banktransfer', $html );
		$this->assertSame( array(), self::requests_made() );
	}

	public function test_the_order_pay_page_of_an_order_with_a_recurring_product_offers_and_takes_only_methods_that_can_create_a_mandate(): void {
		RPS_Stub_State::$transients[ RPS_Settings::METHODS_TRANSIENT ]       = array( 'ideal', 'creditcard', 'banktransfer' );
		RPS_Stub_State::$transients[ RPS_Settings::FIRST_METHODS_TRANSIENT ] = array( 'ideal', 'creditcard' );
		$order                                = self::order( array( 'id' => 41 ) );
		WC_Order::$lines_of[ $order->get_id() ] = array( new WC_Order_Item_Product( self::recurring() ) );
		RPS_Stub_State::$query_vars['order-pay'] = '41';
		$gateway                                 = new RPS_Gateway();

		ob_start();
		$gateway->payment_fields();
		$html = (string) ob_get_clean();
		$this->assertStringContainsString( 'value="creditcard"', $html );
		$this->assertStringNotContainsString( 'banktransfer', $html, 'the cart is empty on the order-pay page: the order decides' );

		// A method the page did not offer, posted anyway, is not passed on: the provider's checkout asks.
		$_POST['rps_method'] = 'banktransfer';
		self::answer( 200, array( 'data' => array( array( 'id' => 'cus_1', 'provider_customer_id' => 'cst_1' ) ) ) );
		self::answer( 201, array( 'id' => 'pay_1', 'status' => 'open', 'provider_checkout_url' => 'https://pay.example/1' ) );
		$this->assertSame( 'success', $gateway->process_payment( 41 )['result'] );
		unset( $_POST['rps_method'] );
		$this->assertArrayNotHasKey( 'method', self::body_sent_to( 'POST', '/api/v2/payments' ) );
	}

	public function test_the_order_pay_page_of_a_one_time_order_keeps_the_plain_method_list(): void {
		RPS_Stub_State::$transients[ RPS_Settings::METHODS_TRANSIENT ] = array( 'ideal', 'banktransfer' );
		$order                                = self::order( array( 'id' => 42 ) );
		WC_Order::$lines_of[ $order->get_id() ] = array( new WC_Order_Item_Product( new WC_Product( 8, 'Mug', '9.99' ) ) );
		RPS_Stub_State::$query_vars['order-pay'] = '42';

		ob_start();
		( new RPS_Gateway() )->payment_fields();
		$this->assertStringContainsString( 'banktransfer', (string) ob_get_clean() );
	}

	public function test_when_no_method_can_create_a_mandate_the_gateway_hides_itself_for_a_recurring_cart(): void {
		self::cart( array( self::recurring() ) );
		self::answer( 422, array( 'error' => 'sequence_type must be first or oneoff' ) );

		$this->assertFalse( ( new RPS_Gateway() )->is_available() );
		$this->assertArrayHasKey( RPS_Settings::FIRST_METHODS_FAILED_TRANSIENT, RPS_Stub_State::$transients );
		$this->assertArrayNotHasKey( RPS_Settings::METHODS_FAILED_TRANSIENT, RPS_Stub_State::$transients, 'one-time carts are not affected' );
	}

	public function test_a_free_trial_cart_still_needs_payment_so_the_gateway_obtains_a_mandate(): void {
		self::cart( array( self::recurring( 7, array( '_rps_trial_days' => '14' ) ) ) );
		$this->assertTrue( RPS_Cart_Gateways::cart_needs_payment( false, RPS_Stub_State::$cart ) );
		self::cart( array( new WC_Product( 8, 'Free sample', '0.00' ) ) );
		$this->assertFalse( RPS_Cart_Gateways::cart_needs_payment( false, RPS_Stub_State::$cart ), 'a free one-time cart is WooCommerce\'s business' );
	}

	public function test_a_free_trial_order_still_needs_payment_while_it_awaits_one(): void {
		$order        = self::order( array( 'total' => '0.00' ) );
		$order->items = array( new WC_Order_Item_Product( self::recurring( 7, array( '_rps_trial_days' => '14' ) ) ) );
		$this->assertTrue( RPS_Cart_Gateways::order_needs_payment( false, $order, array( 'pending', 'failed' ) ) );
		$this->assertFalse( RPS_Cart_Gateways::order_needs_payment( false, $order, array( 'on-hold' ) ), 'not in a status that takes payment' );
		$order->items = array( new WC_Order_Item_Product( new WC_Product( 8, 'Free sample', '0.00' ) ) );
		$this->assertFalse( RPS_Cart_Gateways::order_needs_payment( false, $order, array( 'pending' ) ) );
	}

	public function test_fees_add_the_sign_up_fee_per_item_and_take_a_trials_first_period_off(): void {
		$cart = self::cart( array( self::recurring( 7, array( '_rps_trial_days' => '14', '_rps_signup_fee' => '5.00' ) ), new WC_Product( 8, 'Mug', '9.99' ) ) );
		$cart->items['key0']['quantity']      = 2;
		$cart->items['key0']['line_subtotal'] = 40.0;

		RPS_Cart_Gateways::add_fees( $cart );

		$this->assertSame(
			array(
				array( 'Sign-up fee: Coffee box', 10.0, true, '' ),
				array( 'Free trial: Coffee box', -40.0, false, '' ),
			),
			$cart->fees
		);
	}

	public function test_without_trial_or_fee_no_fees_are_added(): void {
		$cart = self::cart( array( self::recurring() ) );
		RPS_Cart_Gateways::add_fees( $cart );
		$this->assertSame( array(), $cart->fees );
	}

	/** WooCommerce Subscriptions' rules took every gateway but its own out. */
	private static function after_the_extensions_rules(): array {
		$ours                         = new RPS_Gateway();
		RPS_Stub_State::$gateways     = array( 'rps' => $ours );
		RPS_Stub_State::$transients[ RPS_Settings::FIRST_METHODS_TRANSIENT ] = array( 'ideal' );
		return array( 'woocommerce_payments' => new WC_Payment_Gateway() );
	}

	public function test_a_wcs_subscription_cart_keeps_the_extensions_rules_and_gets_our_gateway_back(): void {
		WC_Subscriptions_Product::$subscriptions = array( 9 );
		self::cart( array( new WC_Product( 9, 'WCS box', '15.00', 'subscription' ) ) );

		$this->assertSame( array( 'woocommerce_payments', 'rps' ), array_keys( RPS_Cart_Gateways::available_gateways( self::after_the_extensions_rules() ) ) );
		$this->assertTrue( RPS_Cart_Gateways::cart_needs_mandate() );
		$this->assertFalse( RPS_Cart_Gateways::cart_is_recurring(), 'its products are not ours: no fees, no payment forced' );
	}

	public function test_a_cart_with_a_wcs_subscription_and_our_recurring_product_offers_our_gateway(): void {
		WC_Subscriptions_Product::$subscriptions = array( 9 );
		self::cart( array( new WC_Product( 9, 'WCS box', '15.00', 'subscription' ), self::recurring() ) );

		$this->assertSame( array( 'rps' ), array_keys( RPS_Cart_Gateways::available_gateways( self::after_the_extensions_rules() ) ) );
	}

	public function test_our_gateway_is_not_put_back_when_it_is_not_available(): void {
		WC_Subscriptions_Product::$subscriptions = array( 9 );
		self::cart( array( new WC_Product( 9, 'WCS box', '15.00', 'subscription' ) ) );
		$gateways = self::after_the_extensions_rules();
		RPS_Stub_State::$options['woocommerce_rps_settings'] = array( 'enabled' => 'no' );
		RPS_Stub_State::$gateways                           = array( 'rps' => new RPS_Gateway() );

		$this->assertSame( array( 'woocommerce_payments' ), array_keys( RPS_Cart_Gateways::available_gateways( $gateways ) ) );
	}
}
