<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

final class BlockPricesTest extends StubTestCase {

	public function test_a_recurring_cart_item_carries_its_terms_as_format_strings_for_the_blocks(): void {
		RPS_Stub_State::$options['woocommerce_tax_display_cart'] = 'incl';
		$product       = new WC_Product( 7 );
		$product->meta = array( '_rps_recurring' => 'yes', '_rps_interval' => 'month', '_rps_interval_count' => '1', '_rps_length' => '3', '_rps_signup_fee' => '5.00' );

		$data = RPS_Block_Prices::item_data( array( 'data' => $product, 'quantity' => 2 ) );

		$this->assertSame( '<price/> / month for 3 months with a €6.05 sign-up fee', $data['price_format'] );
		$this->assertSame( '<price/> / month for 3 months with a €12.10 sign-up fee', $data['line_format'] );
	}

	public function test_a_one_time_item_has_empty_formats_so_the_blocks_keep_their_own(): void {
		$this->assertSame( array( 'price_format' => '', 'line_format' => '' ), RPS_Block_Prices::item_data( array( 'data' => new WC_Product( 8 ), 'quantity' => 1 ) ) );
		$this->assertSame( array( 'price_format' => '', 'line_format' => '' ), RPS_Block_Prices::item_data( array() ) );
	}

	public function test_the_format_is_translated_with_the_price_placeholder_where_the_translation_puts_it(): void {
		RPS_Stub_State::$translations = array( '%s / month' => 'per maand: %s' );
		$terms = array( 'interval' => 'month', 'interval_count' => 1, 'length' => 0, 'trial_days' => 0, 'signup_fee' => '' );
		$this->assertSame( 'per maand: <price/>', RPS_Block_Prices::format( $terms, '' ) );
	}
}
