<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

final class ProductFieldsTest extends StubTestCase {

	private const FORM = array(
		'rps_recurring'      => 'yes',
		'rps_interval'       => 'month',
		'rps_interval_count' => '1',
		'rps_length'         => '3',
		'rps_trial_days'     => '',
		'rps_signup_fee'     => '',
	);

	protected function tearDown(): void {
		$_POST = array();
		unset( $GLOBALS['post'] );
	}

	public function test_a_simple_product_made_recurring_in_the_editor_gets_the_contract_meta(): void {
		$product = new WC_Product( 7 );
		$_POST   = array( 'rps_trial_days' => '14', 'rps_signup_fee' => '5' ) + self::FORM;

		RPS_Product_Fields::save_simple( 7 );

		$this->assertSame(
			array(
				'_rps_recurring'      => 'yes',
				'_rps_interval'       => 'month',
				'_rps_interval_count' => '1',
				'_rps_length'         => '3',
				'_rps_trial_days'     => '14',
				'_rps_signup_fee'     => '5.00',
			),
			$product->meta
		);
		$this->assertSame( 1, $product->saves );
		$this->assertSame( array(), RPS_Stub_State::$admin_errors );
	}

	public function test_empty_length_and_trial_mean_until_cancelled_and_no_trial_and_no_fee_is_stored_for_an_empty_fee(): void {
		$product = new WC_Product( 7 );
		$_POST   = array( 'rps_length' => '', 'rps_interval' => 'week', 'rps_interval_count' => '2' ) + self::FORM;

		RPS_Product_Fields::save_simple( 7 );

		$this->assertSame( '0', $product->meta['_rps_length'] );
		$this->assertSame( '0', $product->meta['_rps_trial_days'] );
		$this->assertSame( '2', $product->meta['_rps_interval_count'] );
		$this->assertArrayNotHasKey( '_rps_signup_fee', $product->meta );
	}

	public function test_the_sign_up_fee_is_read_with_the_stores_decimal_comma_and_stored_with_a_point(): void {
		RPS_Stub_State::$options['woocommerce_price_decimal_sep'] = ',';
		$product = new WC_Product( 7 );
		$_POST   = array( 'rps_signup_fee' => '4,5' ) + self::FORM;

		RPS_Product_Fields::save_simple( 7 );

		$this->assertSame( '4.50', $product->meta['_rps_signup_fee'] );
	}

	/** @return array<string, array{0: array<string, string>, 1: string}> */
	public static function invalid_forms(): array {
		return array(
			'unknown period'       => array( array( 'rps_interval' => 'fortnight' ), 'choose a period' ),
			'zero interval count'  => array( array( 'rps_interval_count' => '0' ), '"Charge every"' ),
			'fractional count'     => array( array( 'rps_interval_count' => '1.5' ), '"Charge every"' ),
			'negative length'      => array( array( 'rps_length' => '-1' ), 'number of payments' ),
			'words for a trial'    => array( array( 'rps_trial_days' => 'two weeks' ), 'free trial' ),
			'three decimals fee'   => array( array( 'rps_signup_fee' => '5.001' ), 'sign-up fee' ),
			'fee with a currency'  => array( array( 'rps_signup_fee' => '€5' ), 'sign-up fee' ),
		);
	}

	/**
	 * @dataProvider invalid_forms
	 * @param array<string, string> $change
	 */
	public function test_invalid_input_saves_nothing_and_tells_the_admin_why( array $change, string $why ): void {
		$product       = new WC_Product( 7, 'Coffee box' );
		$product->meta = array( '_rps_recurring' => 'yes', '_rps_interval' => 'year', '_rps_interval_count' => '1' );
		$_POST         = $change + self::FORM;

		RPS_Product_Fields::save_simple( 7 );

		$this->assertSame( array( '_rps_recurring' => 'yes', '_rps_interval' => 'year', '_rps_interval_count' => '1' ), $product->meta, 'the previous terms stay' );
		$this->assertSame( 0, $product->saves );
		$this->assertCount( 1, RPS_Stub_State::$admin_errors );
		$this->assertStringContainsString( 'The recurring terms of Coffee box were not saved', RPS_Stub_State::$admin_errors[0] );
		$this->assertStringContainsString( $why, RPS_Stub_State::$admin_errors[0] );
	}

	public function test_unticking_recurring_removes_all_the_terms(): void {
		$product       = new WC_Product( 7 );
		$product->meta = array( '_rps_recurring' => 'yes', '_rps_interval' => 'month', '_rps_signup_fee' => '5.00', '_sku' => 'CB' );
		$_POST         = array( 'rps_recurring' => '' ) + self::FORM;

		RPS_Product_Fields::save_simple( 7 );

		$this->assertSame( array( '_sku' => 'CB' ), $product->meta );
	}

	public function test_without_the_capability_to_edit_the_product_nothing_is_saved(): void {
		RPS_Stub_State::$user_can = false;
		$product                  = new WC_Product( 7 );
		$_POST                    = self::FORM;

		RPS_Product_Fields::save_simple( 7 );

		$this->assertSame( array(), $product->meta );
		$this->assertSame( 0, $product->saves );
	}

	public function test_each_variation_saves_its_own_entry_of_the_posted_arrays(): void {
		$first  = new WC_Product( 11, 'Coffee box - small', '10.00', 'variation' );
		$second = new WC_Product( 12, 'Coffee box - large', '30.00', 'variation' );
		$_POST  = array(
			'rps_recurring'      => array( 1 => 'yes' ),
			'rps_interval'       => array( 0 => 'month', 1 => 'week' ),
			'rps_interval_count' => array( 0 => '1', 1 => '2' ),
			'rps_length'         => array( 0 => '', 1 => '6' ),
			'rps_trial_days'     => array( 0 => '', 1 => '7' ),
			'rps_signup_fee'     => array( 0 => '', 1 => '' ),
		);

		RPS_Product_Fields::save_variation( 11, 0 );
		RPS_Product_Fields::save_variation( 12, 1 );

		$this->assertSame( array(), $first->meta, 'the unticked variation is not recurring' );
		$this->assertSame(
			array( '_rps_recurring' => 'yes', '_rps_interval' => 'week', '_rps_interval_count' => '2', '_rps_length' => '6', '_rps_trial_days' => '7' ),
			$second->meta
		);
	}

	public function test_an_invalid_variation_tells_the_admin_and_keeps_its_terms(): void {
		$variation = new WC_Product( 12, 'Coffee box - large', '30.00', 'variation' );
		$_POST     = array( 'rps_recurring' => array( 3 => 'yes' ), 'rps_interval' => array( 3 => 'month' ), 'rps_interval_count' => array( 3 => 'x' ) );

		RPS_Product_Fields::save_variation( 12, 3 );

		$this->assertSame( array(), $variation->meta );
		$this->assertStringContainsString( 'Coffee box - large', RPS_Stub_State::$admin_errors[0] );
	}

	public function test_the_editor_shows_the_stored_terms_with_until_cancelled_as_empty_and_the_fee_localized(): void {
		RPS_Stub_State::$options['woocommerce_price_decimal_sep'] = ',';
		$product       = new WC_Product( 7 );
		$product->meta = array( '_rps_recurring' => 'yes', '_rps_interval' => 'week', '_rps_interval_count' => '2', '_rps_length' => '0', '_rps_trial_days' => '14', '_rps_signup_fee' => '5.00' );
		$GLOBALS['post'] = new WP_Post( 7 );

		ob_start();
		RPS_Product_Fields::render_simple();
		$html = (string) ob_get_clean();

		$this->assertStringContainsString( 'show_if_simple', $html );
		$this->assertStringContainsString( '[rps_recurring=yes][rps_interval_count=2][rps_interval=week][rps_length=][rps_trial_days=14][rps_signup_fee=5,00]', $html );
	}

	public function test_a_variation_row_names_its_fields_by_the_loop_index(): void {
		new WC_Product( 12, 'Coffee box - large', '30.00', 'variation' );

		ob_start();
		RPS_Product_Fields::render_variation( 4, array(), new WP_Post( 12 ) );
		$html = (string) ob_get_clean();

		$this->assertStringContainsString( '[rps_recurring[4]=no][rps_interval_count[4]=1][rps_interval[4]=month]', $html );
	}

	public function test_terms_are_read_from_meta_only_so_rest_written_meta_works_the_same_and_bad_values_fall_back(): void {
		$product       = new WC_Product( 7 );
		$product->meta = array( '_rps_recurring' => 'yes', '_rps_interval' => 'month', '_rps_interval_count' => '1', '_rps_length' => '3', '_rps_signup_fee' => '2.5' );
		$this->assertSame( array( 'interval' => 'month', 'interval_count' => 1, 'length' => 3, 'trial_days' => 0, 'signup_fee' => '2.50' ), RPS_Product_Fields::terms_of( $product ) );

		$product->meta = array( '_rps_recurring' => 'yes', '_rps_interval' => 'hour', '_rps_interval_count' => '0', '_rps_signup_fee' => 'abc' );
		$this->assertSame( array( 'interval' => 'month', 'interval_count' => 1, 'length' => 0, 'trial_days' => 0, 'signup_fee' => '' ), RPS_Product_Fields::terms_of( $product ) );

		$product->meta = array( '_rps_recurring' => 'no', '_rps_interval' => 'month' );
		$this->assertNull( RPS_Product_Fields::terms_of( $product ) );
	}
}
