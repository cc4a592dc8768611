<?php
defined( 'ABSPATH' ) || exit;

/**
 * The "Recurring" section of the product editor: on a simple product (General tab) and on each
 * variation. What it saves is product meta, the store's contract with the service (its sync maps
 * it) and with anyone writing products over REST: `_rps_recurring` (yes), `_rps_interval`,
 * `_rps_interval_count`, `_rps_length` (payments including the first, 0 = until cancelled),
 * `_rps_trial_days` and `_rps_signup_fee`. Everything else in the plugin reads the meta only, so a
 * product made recurring through REST `meta_data` behaves the same as one made here.
 */
final class RPS_Product_Fields {

	public const RECURRING      = '_rps_recurring';
	public const INTERVAL       = '_rps_interval';
	public const INTERVAL_COUNT = '_rps_interval_count';
	public const LENGTH         = '_rps_length';
	public const TRIAL_DAYS     = '_rps_trial_days';
	public const SIGNUP_FEE     = '_rps_signup_fee';
	/** Every key this section writes; unticking "Recurring" removes them all. */
	public const KEYS      = array( self::RECURRING, self::INTERVAL, self::INTERVAL_COUNT, self::LENGTH, self::TRIAL_DAYS, self::SIGNUP_FEE );
	public const INTERVALS = array( 'day', 'week', 'month', 'year' );
	/** Sanity limits: beyond these an entry is a typo, not a plan. */
	private const MAX_COUNT = 999;
	private const MAX_TRIAL = 3650;

	public static function register(): void {
		add_action( 'woocommerce_product_options_general_product_data', array( self::class, 'render_simple' ) );
		// After WooCommerce saved the product itself (its own save runs at 10, after its nonce and capability check).
		add_action( 'woocommerce_process_product_meta', array( self::class, 'save_simple' ), 20 );
		add_action( 'woocommerce_product_after_variable_attributes', array( self::class, 'render_variation' ), 10, 3 );
		// Fired by WooCommerce's variations save (nonce "save-variations", capability edit_products checked there).
		add_action( 'woocommerce_save_product_variation', array( self::class, 'save_variation' ), 10, 2 );
	}

	/** The section in the General tab; shown for simple products only (variations have their own). */
	public static function render_simple(): void {
		global $post;
		$product = wc_get_product( $post instanceof WP_Post ? $post->ID : 0 );
		echo '<div class="options_group show_if_simple rps-recurring">';
		self::render_fields( $product instanceof WC_Product ? $product : null, '', '' );
		echo '</div>';
	}

	/**
	 * @param int                  $loop           the variation's index in the form
	 * @param array<string, mixed> $variation_data
	 * @param WP_Post              $variation
	 */
	public static function render_variation( $loop, $variation_data, $variation ): void {
		$product = wc_get_product( $variation instanceof WP_Post ? $variation->ID : 0 );
		echo '<div class="rps-recurring rps-recurring-variation">';
		self::render_fields( $product instanceof WC_Product ? $product : null, '[' . (int) $loop . ']', 'form-row form-row-full' );
		echo '</div>';
	}

	private static function render_fields( ?WC_Product $product, string $suffix, string $wrapper ): void {
		$meta  = static fn ( string $key ): string => null === $product ? '' : (string) $product->get_meta( $key );
		$id    = static fn ( string $name ): string => 'rps_' . $name . ( '' === $suffix ? '' : '_' . trim( $suffix, '[]' ) );
		$count = $meta( self::INTERVAL_COUNT );
		$fee   = $meta( self::SIGNUP_FEE );
		woocommerce_wp_checkbox(
			array(
				'id'            => $id( 'recurring' ),
				'name'          => 'rps_recurring' . $suffix,
				'label'         => __( 'Recurring', 'recurring-payments-bridge' ),
				'description'   => __( 'Sell this as a subscription: the service charges the price every period.', 'recurring-payments-bridge' ),
				'value'         => 'yes' === $meta( self::RECURRING ) ? 'yes' : 'no',
				'cbvalue'       => 'yes',
				'wrapper_class' => $wrapper,
			)
		);
		woocommerce_wp_text_input(
			array(
				'id'                => $id( 'interval_count' ),
				'name'              => 'rps_interval_count' . $suffix,
				'label'             => __( 'Charge every', 'recurring-payments-bridge' ),
				'type'              => 'number',
				'value'             => '' === $count ? '1' : $count,
				'custom_attributes' => array( 'min' => '1', 'step' => '1' ),
				'wrapper_class'     => $wrapper,
			)
		);
		woocommerce_wp_select(
			array(
				'id'            => $id( 'interval' ),
				'name'          => 'rps_interval' . $suffix,
				'label'         => __( 'Period', 'recurring-payments-bridge' ),
				'value'         => '' === $meta( self::INTERVAL ) ? 'month' : $meta( self::INTERVAL ),
				'options'       => array(
					'day'   => __( 'day(s)', 'recurring-payments-bridge' ),
					'week'  => __( 'week(s)', 'recurring-payments-bridge' ),
					'month' => __( 'month(s)', 'recurring-payments-bridge' ),
					'year'  => __( 'year(s)', 'recurring-payments-bridge' ),
				),
				'wrapper_class' => $wrapper,
			)
		);
		woocommerce_wp_text_input(
			array(
				'id'                => $id( 'length' ),
				'name'              => 'rps_length' . $suffix,
				'label'             => __( 'Number of payments', 'recurring-payments-bridge' ),
				'description'       => __( 'All payments including the first. Empty: until cancelled.', 'recurring-payments-bridge' ),
				'desc_tip'          => true,
				'type'              => 'number',
				'value'             => in_array( $meta( self::LENGTH ), array( '', '0' ), true ) ? '' : $meta( self::LENGTH ),
				'custom_attributes' => array( 'min' => '0', 'step' => '1' ),
				'wrapper_class'     => $wrapper,
			)
		);
		woocommerce_wp_text_input(
			array(
				'id'                => $id( 'trial_days' ),
				'name'              => 'rps_trial_days' . $suffix,
				'label'             => __( 'Free trial (days)', 'recurring-payments-bridge' ),
				'type'              => 'number',
				'value'             => in_array( $meta( self::TRIAL_DAYS ), array( '', '0' ), true ) ? '' : $meta( self::TRIAL_DAYS ),
				'custom_attributes' => array( 'min' => '0', 'step' => '1' ),
				'wrapper_class'     => $wrapper,
			)
		);
		woocommerce_wp_text_input(
			array(
				'id'            => $id( 'signup_fee' ),
				/* translators: %s: the store's currency symbol */
				'label'         => sprintf( __( 'Sign-up fee (%s)', 'recurring-payments-bridge' ), get_woocommerce_currency_symbol() ),
				'name'          => 'rps_signup_fee' . $suffix,
				'data_type'     => 'price',
				'value'         => '' === $fee ? '' : wc_format_localized_price( $fee ),
				'wrapper_class' => $wrapper,
			)
		);
	}

	/** @param int $post_id */
	public static function save_simple( $post_id ): void {
		// phpcs:ignore WordPress.Security.NonceVerification.Missing -- WooCommerce checked its meta box nonce before this action.
		$input = wp_unslash( $_POST );
		self::save( (int) $post_id, is_array( $input ) ? self::fields_of( $input, null ) : array() );
	}

	/**
	 * @param int $variation_id
	 * @param int $loop the variation's index in the posted arrays
	 */
	public static function save_variation( $variation_id, $loop ): void {
		// phpcs:ignore WordPress.Security.NonceVerification.Missing -- WooCommerce checked the variations nonce before this action.
		$input = wp_unslash( $_POST );
		self::save( (int) $variation_id, is_array( $input ) ? self::fields_of( $input, (int) $loop ) : array() );
	}

	/**
	 * The section's fields out of a posted form: the plain names, or a variation's entries of the arrays.
	 *
	 * @param array<string, mixed> $input
	 * @return array<string, string>
	 */
	public static function fields_of( array $input, ?int $loop ): array {
		$fields = array();
		foreach ( array( 'recurring', 'interval', 'interval_count', 'length', 'trial_days', 'signup_fee' ) as $name ) {
			$value = $input[ 'rps_' . $name ] ?? '';
			if ( null !== $loop ) {
				$value = is_array( $value ) ? ( $value[ $loop ] ?? '' ) : '';
			}
			$fields[ $name ] = is_scalar( $value ) ? trim( (string) $value ) : '';
		}
		return $fields;
	}

	/**
	 * Checks the fields and writes them. Anything invalid saves none of the section (the product keeps
	 * its previous terms) and shows why on the product screen, WooCommerce's own way.
	 *
	 * @param array<string, string> $fields
	 */
	private static function save( int $product_id, array $fields ): void {
		if ( ! current_user_can( 'edit_post', $product_id ) ) {
			return;
		}
		$product = wc_get_product( $product_id );
		if ( ! $product instanceof WC_Product ) {
			return;
		}
		$parsed = self::parse( $fields );
		if ( array() !== $parsed['errors'] ) {
			foreach ( $parsed['errors'] as $error ) {
				/* translators: 1: the product's name, 2: what is wrong */
				WC_Admin_Meta_Boxes::add_error( sprintf( __( 'The recurring terms of %1$s were not saved: %2$s', 'recurring-payments-bridge' ), $product->get_name(), $error ) );
			}
			return;
		}
		foreach ( self::KEYS as $key ) {
			if ( array_key_exists( $key, $parsed['meta'] ) ) {
				$product->update_meta_data( $key, $parsed['meta'][ $key ] );
			} else {
				$product->delete_meta_data( $key );
			}
		}
		$product->save();
	}

	/**
	 * The meta a form's fields stand for, or why they cannot be saved. Not recurring: no meta at all.
	 *
	 * @param array<string, string> $fields recurring, interval, interval_count, length, trial_days, signup_fee
	 * @return array{meta: array<string, string>, errors: list<string>}
	 */
	public static function parse( array $fields ): array {
		if ( 'yes' !== ( $fields['recurring'] ?? '' ) ) {
			return array( 'meta' => array(), 'errors' => array() );
		}
		$errors   = array();
		$interval = $fields['interval'] ?? '';
		if ( ! in_array( $interval, self::INTERVALS, true ) ) {
			$errors[] = __( 'choose a period of days, weeks, months or years.', 'recurring-payments-bridge' );
		}
		$count = self::whole_number( $fields['interval_count'] ?? '', 1 );
		if ( null === $count || $count < 1 || $count > self::MAX_COUNT ) {
			/* translators: %d: the largest number allowed */
			$errors[] = sprintf( __( '"Charge every" must be a whole number from 1 to %d.', 'recurring-payments-bridge' ), self::MAX_COUNT );
		}
		$length = self::whole_number( $fields['length'] ?? '', 0 );
		if ( null === $length || $length > self::MAX_COUNT ) {
			/* translators: %d: the largest number allowed */
			$errors[] = sprintf( __( 'the number of payments must be empty (until cancelled) or a whole number up to %d.', 'recurring-payments-bridge' ), self::MAX_COUNT );
		}
		$trial = self::whole_number( $fields['trial_days'] ?? '', 0 );
		if ( null === $trial || $trial > self::MAX_TRIAL ) {
			/* translators: %d: the largest number allowed */
			$errors[] = sprintf( __( 'the free trial must be empty or a whole number of days up to %d.', 'recurring-payments-bridge' ), self::MAX_TRIAL );
		}
		$fee = self::amount( $fields['signup_fee'] ?? '' );
		if ( null === $fee ) {
			$errors[] = __( 'the sign-up fee must be an amount such as 5.00, or empty.', 'recurring-payments-bridge' );
		}
		if ( array() !== $errors ) {
			return array( 'meta' => array(), 'errors' => $errors );
		}
		$meta = array(
			self::RECURRING      => 'yes',
			self::INTERVAL       => $interval,
			self::INTERVAL_COUNT => (string) $count,
			self::LENGTH         => (string) $length,
			self::TRIAL_DAYS     => (string) $trial,
		);
		if ( '' !== $fee ) {
			$meta[ self::SIGNUP_FEE ] = $fee;
		}
		return array( 'meta' => $meta, 'errors' => array() );
	}

	/** A whole number ≥ 0; empty is the default; anything else (1.5, -1, "two") is null. */
	private static function whole_number( string $value, int $default ): ?int {
		if ( '' === $value ) {
			return $default;
		}
		return preg_match( '/^\d{1,6}$/', $value ) ? (int) $value : null;
	}

	/**
	 * A decimal string with a point and two decimals ("5.00"), read with the store's decimal separator
	 * ("5,00" in a Dutch store; a point is always taken too). Empty or zero: '' (no fee); invalid: null.
	 */
	private static function amount( string $value ): ?string {
		if ( '' === $value ) {
			return '';
		}
		$separator = wc_get_price_decimal_separator();
		$value     = '' === $separator ? $value : str_replace( $separator, '.', $value );
		if ( ! preg_match( '/^\d{1,9}(?:\.\d{1,2})?$/', $value ) ) {
			return null;
		}
		$cents = RPS_Money::to_cents( $value );
		return 0 === $cents ? '' : sprintf( '%d.%02d', intdiv( $cents, 100 ), $cents % 100 );
	}

	/**
	 * A product's recurring terms from its meta (a variation's own), or null when it is not recurring.
	 * Invalid meta (written over REST) counts as its default rather than breaking a page.
	 *
	 * @return array{interval: string, interval_count: int, length: int, trial_days: int, signup_fee: string}|null
	 */
	public static function terms_of( WC_Product $product ): ?array {
		if ( 'yes' !== $product->get_meta( self::RECURRING ) ) {
			return null;
		}
		$interval = (string) $product->get_meta( self::INTERVAL );
		$fee      = self::amount( trim( (string) $product->get_meta( self::SIGNUP_FEE ) ) );
		return array(
			'interval'       => in_array( $interval, self::INTERVALS, true ) ? $interval : 'month',
			'interval_count' => max( 1, (int) $product->get_meta( self::INTERVAL_COUNT ) ),
			'length'         => max( 0, (int) $product->get_meta( self::LENGTH ) ),
			'trial_days'     => max( 0, (int) $product->get_meta( self::TRIAL_DAYS ) ),
			'signup_fee'     => $fee ?? '',
		);
	}
}
