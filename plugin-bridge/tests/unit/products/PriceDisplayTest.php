<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

final class PriceDisplayTest extends StubTestCase {

	private const PRICE = '<span class="amount">€24.20</span>';

	/** @param array<string, string> $meta */
	private static function product( array $meta, int $id = 7, string $price = '20.00', string $type = 'simple' ): WC_Product {
		$product       = new WC_Product( $id, 'Coffee box', $price, $type );
		$product->meta = $meta + array( '_rps_recurring' => 'yes', '_rps_interval' => 'month', '_rps_interval_count' => '1' );
		return $product;
	}

	private static function text( string $html ): string {
		return trim( (string) preg_replace( '/\s+/', ' ', strip_tags( $html ) ) );
	}

	/** @return array<string, array{0: array<string, string>, 1: string}> */
	public static function combinations(): array {
		return array(
			'monthly until cancelled'   => array( array(), '€24.20 / month' ),
			'monthly, 3 payments'       => array( array( '_rps_length' => '3' ), '€24.20 / month for 3 months' ),
			'every day'                 => array( array( '_rps_interval' => 'day' ), '€24.20 / day' ),
			'every week'                => array( array( '_rps_interval' => 'week' ), '€24.20 / week' ),
			'yearly, 1 payment'         => array( array( '_rps_interval' => 'year', '_rps_length' => '1' ), '€24.20 / year for 1 year' ),
			'every 2 weeks, 3 payments' => array( array( '_rps_interval' => 'week', '_rps_interval_count' => '2', '_rps_length' => '3' ), '€24.20 every 2 weeks for 6 weeks' ),
			'every 3 days'              => array( array( '_rps_interval' => 'day', '_rps_interval_count' => '3' ), '€24.20 every 3 days' ),
			'every 6 months'            => array( array( '_rps_interval_count' => '6' ), '€24.20 every 6 months' ),
			'every 2 years'             => array( array( '_rps_interval' => 'year', '_rps_interval_count' => '2' ), '€24.20 every 2 years' ),
			'trial'                     => array( array( '_rps_trial_days' => '14' ), '€24.20 / month with a 14-day free trial' ),
			'sign-up fee'               => array( array( '_rps_signup_fee' => '5.00' ), '€24.20 / month with a €5.00 sign-up fee' ),
			'all of it'                 => array( array( '_rps_length' => '3', '_rps_trial_days' => '14', '_rps_signup_fee' => '5.00' ), '€24.20 / month for 3 months with a 14-day free trial and a €5.00 sign-up fee' ),
		);
	}

	/**
	 * @dataProvider combinations
	 * @param array<string, string> $meta
	 */
	public function test_the_product_price_says_the_terms( array $meta, string $expected ): void {
		$this->assertSame( $expected, self::text( RPS_Price_Display::product_price_html( self::PRICE, self::product( $meta ) ) ) );
	}

	public function test_a_product_that_is_not_recurring_keeps_its_price_html_untouched(): void {
		$product = new WC_Product( 7 );
		$this->assertSame( self::PRICE, RPS_Price_Display::product_price_html( self::PRICE, $product ) );
		$this->assertSame( '', RPS_Price_Display::product_price_html( '', self::product( array() ) ), 'no price, no words' );
	}

	public function test_the_sign_up_fee_follows_the_stores_tax_display_like_the_price(): void {
		$product = self::product( array( '_rps_signup_fee' => '5.00' ) );
		RPS_Stub_State::$options['woocommerce_tax_display_shop'] = 'incl';
		$this->assertStringEndsWith( 'with a €6.05 sign-up fee', self::text( RPS_Price_Display::product_price_html( self::PRICE, $product ) ) );
		RPS_Stub_State::$options['woocommerce_tax_display_shop'] = 'excl';
		$this->assertStringEndsWith( 'with a €5.00 sign-up fee', self::text( RPS_Price_Display::product_price_html( self::PRICE, $product ) ) );
	}

	public function test_the_words_are_translated(): void {
		RPS_Stub_State::$options['woocommerce_price_decimal_sep'] = ',';
		RPS_Stub_State::$translations = array(
			'%1$s every %2$s weeks'                                      => '%1$s per %2$s weken',
			'%s weeks'                                                   => '%s weken',
			'%1$s for %2$s'                                              => '%1$s gedurende %2$s',
			'%1$s with a %2$s-day free trial and a %3$s sign-up fee'     => '%1$s met %2$s dagen gratis proef en %3$s inschrijfkosten',
		);
		$product = self::product( array( '_rps_interval' => 'week', '_rps_interval_count' => '2', '_rps_length' => '3', '_rps_trial_days' => '14', '_rps_signup_fee' => '5.00' ) );

		$this->assertSame( '€24,20 per 2 weken gedurende 6 weken met 14 dagen gratis proef en €5,00 inschrijfkosten', self::text( RPS_Price_Display::product_price_html( '<span class="amount">€24,20</span>', $product ) ) );
	}

	public function test_a_variable_product_shows_the_terms_its_variations_share_and_none_when_they_differ(): void {
		self::product( array( '_rps_length' => '3' ), 11 );
		self::product( array( '_rps_length' => '3' ), 12 );
		$parent = new WC_Product( 10, 'Coffee box', '', 'variable', array( 11, 12 ) );
		$this->assertSame( '€10.00 – €30.00 / month for 3 months', self::text( RPS_Price_Display::product_price_html( '€10.00 – €30.00', $parent ) ) );

		self::product( array( '_rps_length' => '6' ), 12 );
		$this->assertSame( '€10.00 – €30.00', RPS_Price_Display::product_price_html( '€10.00 – €30.00', $parent ) );
	}

	public function test_a_variation_shows_its_own_terms(): void {
		$variation = self::product( array( '_rps_interval' => 'year' ), 12, '30.00', 'variation' );
		$this->assertSame( '€24.20 / year', self::text( RPS_Price_Display::product_price_html( self::PRICE, $variation ) ) );
	}

	public function test_cart_lines_show_the_terms_with_the_fee_for_the_whole_quantity_in_the_subtotal(): void {
		RPS_Stub_State::$options['woocommerce_tax_display_cart'] = 'incl';
		$item = array( 'data' => self::product( array( '_rps_signup_fee' => '5.00' ) ), 'quantity' => 2 );

		$this->assertSame( '€24.20 / month with a €6.05 sign-up fee', self::text( RPS_Price_Display::cart_item_price( self::PRICE, $item ) ) );
		$this->assertSame( '€48.40 / month with a €12.10 sign-up fee', self::text( RPS_Price_Display::cart_item_subtotal( '<span class="amount">€48.40</span>', $item ) ) );
		$this->assertSame( '€9.99', RPS_Price_Display::cart_item_price( '€9.99', array( 'data' => new WC_Product( 8 ), 'quantity' => 1 ) ), 'a one-time line' );
	}

	public function test_order_lines_in_order_screens_and_e_mails_show_the_terms(): void {
		$item = new WC_Order_Item_Product( self::product( array( '_rps_length' => '3' ) ), 1 );
		$this->assertSame( '€24.20 / month for 3 months', self::text( RPS_Price_Display::order_line_subtotal( self::PRICE, $item ) ) );
		$this->assertSame( self::PRICE, RPS_Price_Display::order_line_subtotal( self::PRICE, new WC_Order_Item_Product( null ) ), 'a deleted product' );
	}

	public function test_an_order_line_keeps_the_terms_it_was_bought_with_when_the_product_changes_later(): void {
		$product = self::product( array( '_rps_length' => '3', '_rps_signup_fee' => '5.00' ) );
		$item    = new WC_Order_Item_Product( $product, 1 );
		RPS_Price_Display::remember_terms( $item, 'key0', array( 'data' => $product ) );
		$this->assertSame( '{"interval":"month","interval_count":1,"length":3,"trial_days":0,"signup_fee":"5.00"}', $item->get_meta( '_rps_terms' ) );

		$product->meta['_rps_length']   = '12';
		$product->meta['_rps_interval'] = 'week';
		$this->assertSame( '€24.20 / month for 3 months with a €5.00 sign-up fee', self::text( RPS_Price_Display::order_line_subtotal( self::PRICE, $item ) ) );

		$gone = new WC_Order_Item_Product( null );
		$gone->add_meta_data( '_rps_terms', $item->get_meta( '_rps_terms' ) );
		$this->assertSame( '€24.20 / month for 3 months', self::text( RPS_Price_Display::order_line_subtotal( self::PRICE, $gone ) ), 'the product deleted since' );

		$one_time = new WC_Order_Item_Product( new WC_Product( 8, 'Mug', '9.99' ) );
		RPS_Price_Display::remember_terms( $one_time, 'key1', array( 'data' => new WC_Product( 8, 'Mug', '9.99' ) ) );
		$this->assertSame( '', $one_time->get_meta( '_rps_terms' ) );
	}
}
