<?php
defined( 'ABSPATH' ) || exit;

/**
 * A cart with a recurring product is paid so that a mandate comes out of it: only our gateway is
 * offered, with only the methods that can create one (the service's `?sequence_type=first`), and
 * the checkout goes through the gateway even at a total of 0.00 (a free trial), since WooCommerce
 * would otherwise skip payment and no mandate would exist for the renewals. One-time lines may sit
 * in the same cart: they are paid once with the first payment.
 *
 * The first payment is the sign-up fee plus the first period, or with a trial the sign-up fee only:
 * the line keeps its price per period (what the service bills), and cart fees add the sign-up fee
 * and take the trial's period off.
 *
 * WooCommerce Subscriptions' products (when that extension is active) follow its own cart rules;
 * only our gateway is put back when its rules took it out.
 */
final class RPS_Cart_Gateways {

	public static function register(): void {
		add_filter( 'woocommerce_available_payment_gateways', array( self::class, 'available_gateways' ), 100 );
		add_filter( 'woocommerce_cart_needs_payment', array( self::class, 'cart_needs_payment' ), 20, 2 );
		add_filter( 'woocommerce_order_needs_payment', array( self::class, 'order_needs_payment' ), 20, 3 );
		add_action( 'woocommerce_cart_calculate_fees', array( self::class, 'add_fees' ) );
	}

	/** True when the current cart holds a product made recurring by our meta. */
	public static function cart_is_recurring(): bool {
		foreach ( self::cart_products() as $product ) {
			if ( null !== RPS_Product_Fields::terms_of( $product ) ) {
				return true;
			}
		}
		return false;
	}

	/** True when the checkout must obtain a mandate: our recurring products or the extension's. */
	public static function cart_needs_mandate(): bool {
		foreach ( self::cart_products() as $product ) {
			if ( null !== RPS_Product_Fields::terms_of( $product ) || self::is_wcs_subscription( $product ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * True when an order holds a recurring product (ours or the extension's): paid on the order-pay page
	 * (a failed first attempt, an order the shop owner made), its payment must leave a mandate too.
	 */
	public static function order_needs_mandate( WC_Order $order ): bool {
		foreach ( $order->get_items() as $item ) {
			$product = $item instanceof WC_Order_Item_Product ? $item->get_product() : null;
			if ( $product instanceof WC_Product && ( null !== RPS_Product_Fields::terms_of( $product ) || self::is_wcs_subscription( $product ) ) ) {
				return true;
			}
		}
		return false;
	}

	/** The order of the order-pay page being shown or submitted; null elsewhere. */
	public static function order_being_paid(): ?WC_Order {
		$order_id = absint( get_query_var( 'order-pay' ) );
		$order    = $order_id > 0 ? wc_get_order( $order_id ) : false;
		return $order instanceof WC_Order ? $order : null;
	}

	/**
	 * @param array<string, WC_Payment_Gateway> $gateways
	 * @return array<string, WC_Payment_Gateway>
	 */
	public static function available_gateways( $gateways ): array {
		$gateways = is_array( $gateways ) ? $gateways : array();
		if ( is_admin() && ! wp_doing_ajax() ) {
			return $gateways; // The settings screens list every gateway.
		}
		// The extension's rules (earlier on this filter) keep only gateways it knows: ours goes back.
		if ( ! isset( $gateways[ RPS_Gateway::ID ] ) && self::cart_has_wcs_subscription() ) {
			$ours = WC()->payment_gateways()->payment_gateways()[ RPS_Gateway::ID ] ?? null;
			if ( $ours instanceof WC_Payment_Gateway && $ours->is_available() ) {
				$gateways[ RPS_Gateway::ID ] = $ours;
			}
		}
		if ( self::cart_is_recurring() ) {
			return array_intersect_key( $gateways, array( RPS_Gateway::ID => true ) );
		}
		return $gateways;
	}

	/**
	 * @param bool    $needs_payment
	 * @param WC_Cart $cart
	 */
	public static function cart_needs_payment( $needs_payment, $cart = null ): bool {
		return (bool) $needs_payment || self::cart_is_recurring();
	}

	/**
	 * The order of a free trial still goes to the gateway (the Checkout block and the order-pay page
	 * ask the order, the classic checkout asks the cart).
	 *
	 * @param bool         $needs_payment
	 * @param WC_Order     $order
	 * @param list<string> $valid_statuses
	 */
	public static function order_needs_payment( $needs_payment, $order = null, $valid_statuses = array() ): bool {
		if ( $needs_payment || ! $order instanceof WC_Order || ! $order->has_status( (array) $valid_statuses ) ) {
			return (bool) $needs_payment;
		}
		foreach ( $order->get_items() as $item ) {
			$product = $item instanceof WC_Order_Item_Product ? $item->get_product() : null;
			if ( $product instanceof WC_Product && null !== RPS_Product_Fields::terms_of( $product ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The sign-up fee (taxed like the product) and, for a trial, the first period taken off again (a
	 * negative untaxed fee: WooCommerce spreads its tax over the cart's lines, as for a discount).
	 *
	 * @param WC_Cart $cart
	 */
	public static function add_fees( $cart ): void {
		if ( ! $cart instanceof WC_Cart ) {
			return;
		}
		foreach ( $cart->get_cart() as $cart_item ) {
			$product = $cart_item['data'] ?? null;
			$terms   = $product instanceof WC_Product ? RPS_Product_Fields::terms_of( $product ) : null;
			if ( null === $terms ) {
				continue;
			}
			$qty = max( 1, (int) ( $cart_item['quantity'] ?? 1 ) );
			if ( '' !== $terms['signup_fee'] ) {
				/* translators: %s: the product's name */
				$cart->add_fee( sprintf( __( 'Sign-up fee: %s', 'recurring-payments-bridge' ), $product->get_name() ), RPS_Money::to_cents( $terms['signup_fee'] ) * $qty / 100, $product->is_taxable(), $product->get_tax_class() );
			}
			$period = (float) ( $cart_item['line_subtotal'] ?? 0 );
			if ( $terms['trial_days'] > 0 && $period > 0 ) {
				/* translators: %s: the product's name */
				$cart->add_fee( sprintf( __( 'Free trial: %s', 'recurring-payments-bridge' ), $product->get_name() ), -$period, false );
			}
		}
	}

	/** @return list<WC_Product> */
	private static function cart_products(): array {
		// Before wp_loaded the cart is not loaded from the session yet (and WooCommerce warns when asked).
		$cart = function_exists( 'WC' ) && did_action( 'wp_loaded' ) ? WC()->cart : null;
		if ( ! $cart instanceof WC_Cart ) {
			return array();
		}
		$products = array();
		foreach ( $cart->get_cart() as $cart_item ) {
			if ( ( $cart_item['data'] ?? null ) instanceof WC_Product ) {
				$products[] = $cart_item['data'];
			}
		}
		return $products;
	}

	private static function cart_has_wcs_subscription(): bool {
		foreach ( self::cart_products() as $product ) {
			if ( self::is_wcs_subscription( $product ) ) {
				return true;
			}
		}
		return false;
	}

	private static function is_wcs_subscription( WC_Product $product ): bool {
		return class_exists( 'WC_Subscriptions_Product' ) && WC_Subscriptions_Product::is_subscription( $product );
	}
}
