<?php
defined( 'ABSPATH' ) || exit;

/**
 * A recurring product's price says what it is: "€24.20 / month for 3 months with a 14-day free trial
 * and a €5.00 sign-up fee". The price itself stays WooCommerce's price HTML (so the store's tax
 * display, sale prices and suffix apply); the terms come from the product's meta and are added in
 * the shop, the cart, the checkout and the order's lines (order screens and e-mails). An order's line
 * keeps the terms it was bought with (`_rps_terms`): a product changed later does not rewrite what the
 * buyer agreed to.
 */
final class RPS_Price_Display {

	/** Order line meta: the terms as bought, JSON (hidden: the underscore keeps it out of the order screens). */
	public const LINE_TERMS = '_rps_terms';

	public static function register(): void {
		add_action( 'woocommerce_checkout_create_order_line_item', array( self::class, 'remember_terms' ), 10, 3 );
		add_filter( 'woocommerce_get_price_html', array( self::class, 'product_price_html' ), 20, 2 );
		add_filter( 'woocommerce_cart_item_price', array( self::class, 'cart_item_price' ), 20, 2 );
		add_filter( 'woocommerce_cart_item_subtotal', array( self::class, 'cart_item_subtotal' ), 20, 2 );
		add_filter( 'woocommerce_order_formatted_line_subtotal', array( self::class, 'order_line_subtotal' ), 20, 2 );
	}

	/**
	 * The shop, the product page and a chosen variation. A variable product gets the terms when all its
	 * variations share them (otherwise each variation shows its own when chosen).
	 *
	 * @param string     $price_html
	 * @param WC_Product $product
	 */
	public static function product_price_html( $price_html, $product ): string {
		$price_html = (string) $price_html;
		if ( '' === $price_html || ! $product instanceof WC_Product ) {
			return $price_html;
		}
		$terms = $product->is_type( 'variable' ) ? self::shared_terms( $product ) : RPS_Product_Fields::terms_of( $product );
		return null === $terms ? $price_html : self::describe( $price_html, $terms, self::fee_html( $product, $terms, 1, 'shop' ) );
	}

	/**
	 * @param string               $price_html
	 * @param array<string, mixed> $cart_item
	 */
	public static function cart_item_price( $price_html, $cart_item ): string {
		return self::for_cart_item( (string) $price_html, is_array( $cart_item ) ? $cart_item : array(), false );
	}

	/**
	 * @param string               $subtotal_html
	 * @param array<string, mixed> $cart_item
	 */
	public static function cart_item_subtotal( $subtotal_html, $cart_item ): string {
		return self::for_cart_item( (string) $subtotal_html, is_array( $cart_item ) ? $cart_item : array(), true );
	}

	/**
	 * The order's line in the order screens, the thank-you page and WooCommerce's e-mails.
	 *
	 * @param string        $subtotal_html
	 * @param WC_Order_Item $item
	 */
	public static function order_line_subtotal( $subtotal_html, $item ): string {
		$subtotal_html = (string) $subtotal_html;
		if ( ! $item instanceof WC_Order_Item_Product ) {
			return $subtotal_html;
		}
		$product = $item->get_product();
		$terms   = self::terms_bought( $item ) ?? ( $product instanceof WC_Product ? RPS_Product_Fields::terms_of( $product ) : null );
		if ( null === $terms ) {
			return $subtotal_html;
		}
		$fee = $product instanceof WC_Product ? self::fee_html( $product, $terms, max( 1, (int) $item->get_quantity() ), 'cart' ) : '';
		return self::describe( $subtotal_html, $terms, $fee );
	}

	/**
	 * The classic checkout and the Checkout block (both make the order's lines here): the line keeps the
	 * recurring terms of the moment it was bought.
	 *
	 * @param WC_Order_Item_Product $item
	 * @param string                $cart_item_key
	 * @param array<string, mixed>  $values the cart item
	 */
	public static function remember_terms( $item, $cart_item_key, $values ): void {
		$product = is_array( $values ) ? ( $values['data'] ?? null ) : null;
		$terms   = $product instanceof WC_Product ? RPS_Product_Fields::terms_of( $product ) : null;
		if ( null !== $terms && $item instanceof WC_Order_Item_Product ) {
			$item->add_meta_data( self::LINE_TERMS, (string) wp_json_encode( $terms ), true );
		}
	}

	/**
	 * The terms an order line was bought with; null for a line without them (bought before this was
	 * kept, or not recurring).
	 *
	 * @return array{interval: string, interval_count: int, length: int, trial_days: int, signup_fee: string}|null
	 */
	private static function terms_bought( WC_Order_Item_Product $item ): ?array {
		$kept = json_decode( (string) $item->get_meta( self::LINE_TERMS ), true );
		if ( ! is_array( $kept ) || ! in_array( $kept['interval'] ?? null, RPS_Product_Fields::INTERVALS, true ) ) {
			return null;
		}
		return array(
			'interval'       => (string) $kept['interval'],
			'interval_count' => max( 1, (int) ( $kept['interval_count'] ?? 1 ) ),
			'length'         => max( 0, (int) ( $kept['length'] ?? 0 ) ),
			'trial_days'     => max( 0, (int) ( $kept['trial_days'] ?? 0 ) ),
			'signup_fee'     => is_string( $kept['signup_fee'] ?? null ) ? $kept['signup_fee'] : '',
		);
	}

	/** @param array<string, mixed> $cart_item */
	private static function for_cart_item( string $html, array $cart_item, bool $whole_line ): string {
		$product = $cart_item['data'] ?? null;
		if ( '' === $html || ! $product instanceof WC_Product ) {
			return $html;
		}
		$terms = RPS_Product_Fields::terms_of( $product );
		$qty   = $whole_line ? max( 1, (int) ( $cart_item['quantity'] ?? 1 ) ) : 1;
		return null === $terms ? $html : self::describe( $html, $terms, self::fee_html( $product, $terms, $qty, 'cart' ) );
	}

	/**
	 * The words around a price. Each combination is one translatable sentence with placeholders, so
	 * a translation can order it as its language needs.
	 *
	 * @param array{interval: string, interval_count: int, length: int, trial_days: int, signup_fee: string} $terms
	 * @param string                                                                                         $fee_html the sign-up fee as shown ('' when none)
	 */
	public static function describe( string $price_html, array $terms, string $fee_html ): string {
		$text = self::per_period( $price_html, $terms['interval'], $terms['interval_count'] );
		if ( $terms['length'] > 0 ) {
			/* translators: 1: the price per period, e.g. "€24.20 / month", 2: how long, e.g. "3 months" */
			$text = sprintf( __( '%1$s for %2$s', 'recurring-payments-bridge' ), $text, self::duration( $terms['interval'], $terms['length'] * $terms['interval_count'] ) );
		}
		$days = $terms['trial_days'];
		if ( $days > 0 && '' !== $fee_html ) {
			/* translators: 1: the price and its period, 2: the number of days, 3: the sign-up fee */
			$text = sprintf( __( '%1$s with a %2$s-day free trial and a %3$s sign-up fee', 'recurring-payments-bridge' ), $text, number_format_i18n( $days ), $fee_html );
		} elseif ( $days > 0 ) {
			/* translators: 1: the price and its period, 2: the number of days */
			$text = sprintf( __( '%1$s with a %2$s-day free trial', 'recurring-payments-bridge' ), $text, number_format_i18n( $days ) );
		} elseif ( '' !== $fee_html ) {
			/* translators: 1: the price and its period, 2: the sign-up fee */
			$text = sprintf( __( '%1$s with a %2$s sign-up fee', 'recurring-payments-bridge' ), $text, $fee_html );
		}
		return '<span class="rps-recurring-price">' . $text . '</span>';
	}

	/** "€24.20 / month", "€24.20 every 2 weeks". */
	private static function per_period( string $price_html, string $interval, int $count ): string {
		if ( 1 === $count ) {
			$formats = array(
				/* translators: %s: the price */
				'day'   => __( '%s / day', 'recurring-payments-bridge' ),
				/* translators: %s: the price */
				'week'  => __( '%s / week', 'recurring-payments-bridge' ),
				/* translators: %s: the price */
				'month' => __( '%s / month', 'recurring-payments-bridge' ),
				/* translators: %s: the price */
				'year'  => __( '%s / year', 'recurring-payments-bridge' ),
			);
			return sprintf( $formats[ $interval ] ?? $formats['month'], $price_html );
		}
		// Two or more: the plural form in English and Dutch (the plugin's tooling has no _n()).
		$formats = array(
			/* translators: 1: the price, 2: the number of days (2 or more) */
			'day'   => __( '%1$s every %2$s days', 'recurring-payments-bridge' ),
			/* translators: 1: the price, 2: the number of weeks (2 or more) */
			'week'  => __( '%1$s every %2$s weeks', 'recurring-payments-bridge' ),
			/* translators: 1: the price, 2: the number of months (2 or more) */
			'month' => __( '%1$s every %2$s months', 'recurring-payments-bridge' ),
			/* translators: 1: the price, 2: the number of years (2 or more) */
			'year'  => __( '%1$s every %2$s years', 'recurring-payments-bridge' ),
		);
		return sprintf( $formats[ $interval ] ?? $formats['month'], $price_html, number_format_i18n( $count ) );
	}

	/** "3 months", "6 weeks": the whole time the payments cover. */
	private static function duration( string $interval, int $units ): string {
		$formats = 1 === $units
			? array(
				/* translators: %s: 1 */
				'day'   => __( '%s day', 'recurring-payments-bridge' ),
				/* translators: %s: 1 */
				'week'  => __( '%s week', 'recurring-payments-bridge' ),
				/* translators: %s: 1 */
				'month' => __( '%s month', 'recurring-payments-bridge' ),
				/* translators: %s: 1 */
				'year'  => __( '%s year', 'recurring-payments-bridge' ),
			)
			: array(
				/* translators: %s: a number of days (2 or more) */
				'day'   => __( '%s days', 'recurring-payments-bridge' ),
				/* translators: %s: a number of weeks (2 or more) */
				'week'  => __( '%s weeks', 'recurring-payments-bridge' ),
				/* translators: %s: a number of months (2 or more) */
				'month' => __( '%s months', 'recurring-payments-bridge' ),
				/* translators: %s: a number of years (2 or more) */
				'year'  => __( '%s years', 'recurring-payments-bridge' ),
			);
		return sprintf( $formats[ $interval ] ?? $formats['month'], number_format_i18n( $units ) );
	}

	/**
	 * The sign-up fee as shown: under the store's tax display for the shop or the cart, like the price.
	 *
	 * @param array{signup_fee: string} $terms
	 */
	public static function fee_html( WC_Product $product, array $terms, int $qty, string $context ): string {
		if ( '' === $terms['signup_fee'] ) {
			return '';
		}
		return wc_price(
			wc_get_price_to_display(
				$product,
				array(
					'price'           => (float) $terms['signup_fee'],
					'qty'             => $qty,
					'display_context' => $context,
				)
			)
		);
	}

	/**
	 * A variable product's terms when every variation has the same ones; null otherwise.
	 *
	 * @return array{interval: string, interval_count: int, length: int, trial_days: int, signup_fee: string}|null
	 */
	private static function shared_terms( WC_Product $product ): ?array {
		$shared = null;
		foreach ( $product->get_children() as $child_id ) {
			$child = wc_get_product( $child_id );
			$terms = $child instanceof WC_Product ? RPS_Product_Fields::terms_of( $child ) : null;
			if ( null === $terms || ( null !== $shared && $shared !== $terms ) ) {
				return null;
			}
			$shared = $terms;
		}
		return $shared;
	}
}
