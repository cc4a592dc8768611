<?php
defined( 'ABSPATH' ) || exit;

/**
 * The recurring terms in WooCommerce's Cart and Checkout blocks. Those render prices in the browser
 * from the Store API, so the PHP price filters do not reach them: each cart item carries its terms as
 * format strings (`<price/> / month for 3 months`, Store API extension data under `rps`), and a small
 * script hands them to the blocks' price filters (`subtotalPriceFormat` for the unit price,
 * `cartItemPrice` for the line).
 */
final class RPS_Block_Prices {

	public const NAMESPACE = 'rps';
	/** Stands for the price while the words are made; the blocks' own placeholder replaces it. */
	private const PRICE_TOKEN = 'RPSPRICETOKEN';

	public static function register(): void {
		add_action( 'wp_enqueue_scripts', array( self::class, 'enqueue_script' ) );
	}

	/** Called on woocommerce_blocks_loaded (the main file), when the Store API can take extension data. */
	public static function register_store_api_data(): void {
		if ( ! function_exists( 'woocommerce_store_api_register_endpoint_data' ) ) {
			return;
		}
		woocommerce_store_api_register_endpoint_data(
			array(
				'endpoint'        => \Automattic\WooCommerce\StoreApi\Schemas\V1\CartItemSchema::IDENTIFIER,
				'namespace'       => self::NAMESPACE,
				'data_callback'   => array( self::class, 'item_data' ),
				'schema_callback' => array( self::class, 'item_schema' ),
				'schema_type'     => ARRAY_A,
			)
		);
	}

	/**
	 * @param array<string, mixed> $cart_item
	 * @return array{price_format: string, line_format: string}
	 */
	public static function item_data( $cart_item ): array {
		$none    = array(
			'price_format' => '',
			'line_format'  => '',
		);
		$product = is_array( $cart_item ) ? ( $cart_item['data'] ?? null ) : null;
		$terms   = $product instanceof WC_Product ? RPS_Product_Fields::terms_of( $product ) : null;
		if ( null === $terms ) {
			return $none;
		}
		$qty = max( 1, (int) ( $cart_item['quantity'] ?? 1 ) );
		return array(
			'price_format' => self::format( $terms, RPS_Price_Display::fee_html( $product, $terms, 1, 'cart' ) ),
			'line_format'  => self::format( $terms, RPS_Price_Display::fee_html( $product, $terms, $qty, 'cart' ) ),
		);
	}

	/** @return array<string, array<string, mixed>> */
	public static function item_schema(): array {
		return array(
			'price_format' => array(
				'description' => 'The unit price with its recurring terms, <price/> standing for the price; empty when the item is not recurring.',
				'type'        => 'string',
				'readonly'    => true,
			),
			'line_format'  => array(
				'description' => 'The line total with its recurring terms (the sign-up fee for the whole quantity).',
				'type'        => 'string',
				'readonly'    => true,
			),
		);
	}

	/**
	 * The sentence as plain text with `<price/>` where the price goes.
	 *
	 * @param array{interval: string, interval_count: int, length: int, trial_days: int, signup_fee: string} $terms
	 */
	public static function format( array $terms, string $fee_html ): string {
		$text = html_entity_decode( wp_strip_all_tags( RPS_Price_Display::describe( self::PRICE_TOKEN, $terms, $fee_html ) ), ENT_QUOTES, 'UTF-8' );
		return str_replace( self::PRICE_TOKEN, '<price/>', $text );
	}

	public static function enqueue_script(): void {
		if ( ! function_exists( 'has_block' ) || ! ( has_block( 'woocommerce/cart' ) || has_block( 'woocommerce/checkout' ) ) ) {
			return;
		}
		wp_enqueue_script( 'rps-block-prices', plugins_url( 'assets/block-prices.js', RPS_PLUGIN_FILE ), array( 'wc-blocks-checkout' ), RPS_VERSION, true );
	}
}
