<?php
/** WooCommerce classes and functions the plugin calls, as far as it uses them. */

/** An order kept in RPS_Stub_State::$orders, saved back on save() and on every status change. */
class WC_Order {
	/** @var list<WC_Order_Item> the order's lines (not kept in the state) */
	public array $items = array();
	/** @var array<int, list<WC_Order_Item>> order id => the lines wc_get_order gives it (tests set them) */
	public static array $lines_of = array();
	/** @return list<WC_Order_Item> */
	public function get_items(): array {
		return $this->items;
	}

	/** @param array<string, mixed> $data */
	public function __construct( private array $data ) {
		$this->data += array(
			'status'                 => 'pending',
			'meta'                   => array(),
			'notes'                  => array(),
			'transaction_id'         => '',
			'payment_complete_calls' => 0,
			'paid_by_callback'       => 0,
			'currency'               => 'EUR',
			'payment_method'         => 'rps',
		);
	}

	/** @return list<mixed> */
	public function get_refunds(): array {
		return (array) ( $this->data['refunds'] ?? array() );
	}

	/** What the refund records made by wc_create_refund add up to (records given as plain names count nothing). */
	public function get_total_refunded(): float {
		return (float) array_sum( array_map( static fn ( mixed $refund ): float => is_array( $refund ) ? (float) $refund['amount'] : 0.0, $this->get_refunds() ) );
	}

	public function get_payment_method(): string {
		return (string) $this->data['payment_method'];
	}

	public function get_id(): int {
		return (int) $this->data['id'];
	}
	public function get_order_key(): string {
		return (string) $this->data['order_key'];
	}
	public function get_order_number(): string {
		return (string) $this->data['id'];
	}
	public function get_total(): string {
		return (string) $this->data['total'];
	}
	public function get_currency(): string {
		return (string) $this->data['currency'];
	}
	public function get_billing_first_name(): string {
		return (string) ( $this->data['billing']['first_name'] ?? '' );
	}
	public function get_billing_last_name(): string {
		return (string) ( $this->data['billing']['last_name'] ?? '' );
	}
	public function get_billing_email(): string {
		return (string) ( $this->data['billing']['email'] ?? '' );
	}
	public function get_view_order_url(): string {
		return home_url( '/my-account/view-order/' . $this->get_id() . '/' );
	}
	public function get_edit_order_url(): string {
		return admin_url( 'admin.php?page=wc-orders&action=edit&id=' . $this->get_id() );
	}
	public function get_customer_id(): int {
		return (int) ( $this->data['customer_id'] ?? 0 );
	}
	public function get_status(): string {
		return (string) $this->data['status'];
	}
	public function get_transaction_id(): string {
		return (string) $this->data['transaction_id'];
	}
	public function get_meta( string $key ): mixed {
		return $this->data['meta'][ $key ] ?? '';
	}
	public function update_meta_data( string $key, mixed $value ): void {
		$this->data['meta'][ $key ] = $value;
	}
	public function delete_meta_data( string $key ): void {
		unset( $this->data['meta'][ $key ] );
	}
	public function save(): int {
		RPS_Stub_State::$orders[ $this->get_id() ] = $this->data;
		return $this->get_id();
	}
	/** @param string|list<string> $statuses */
	public function has_status( string|array $statuses ): bool {
		return in_array( $this->get_status(), (array) $statuses, true );
	}
	public function is_paid(): bool {
		return $this->has_status( array( 'processing', 'completed' ) );
	}
	/** As WooCommerce: only an order awaiting payment is marked paid; every call is counted. */
	public function payment_complete( string $transaction_id = '' ): bool {
		++$this->data['payment_complete_calls'];
		if ( $this->has_status( array( 'on-hold', 'pending', 'failed', 'cancelled' ) ) ) {
			$this->data['transaction_id'] = $transaction_id;
			$this->data['status']         = 'processing';
			++$this->data['paid_by_callback'];
		}
		$this->save();
		return true;
	}
	public function update_status( string $status, string $note = '' ): bool {
		$this->data['status'] = $status;
		if ( '' !== $note ) {
			$this->data['notes'][] = $note;
		}
		$this->save();
		return true;
	}
	public function add_order_note( string $note ): int {
		$this->data['notes'][] = $note;
		$this->save();
		return count( $this->data['notes'] );
	}
	/** @return array<string, mixed> */
	public function stub_data(): array {
		return $this->data;
	}
}

/**
 * As WooCommerce: a refund record on the order (with `refund_payment` the gateway would be asked too; the plugin
 * only records). The record is kept in the order's `refunds`; more than is left is refused.
 *
 * @param array<string, mixed> $args
 */
function wc_create_refund( array $args ): array|WP_Error {
	$data = RPS_Stub_State::$orders[ (int) $args['order_id'] ] ?? null;
	if ( ! is_array( $data ) ) {
		return new WP_Error( 'woocommerce_refund_error', 'Invalid order' );
	}
	$order = new WC_Order( $data );
	if ( (float) $args['amount'] + $order->get_total_refunded() > (float) $order->get_total() + 0.001 ) {
		return new WP_Error( 'woocommerce_refund_error', 'Invalid refund amount' );
	}
	$refund                                        = array( 'amount' => (string) $args['amount'], 'reason' => (string) ( $args['reason'] ?? '' ), 'refund_payment' => (bool) ( $args['refund_payment'] ?? false ) );
	$data['refunds']                               = array_merge( (array) ( $data['refunds'] ?? array() ), array( $refund ) );
	RPS_Stub_State::$orders[ (int) $args['order_id'] ] = $data;
	return $refund;
}

function wc_get_order( mixed $id ): WC_Order|false {
	$data = RPS_Stub_State::$orders[ (int) $id ] ?? null;
	if ( ! is_array( $data ) ) {
		return false;
	}
	$order        = new WC_Order( $data );
	$order->items = WC_Order::$lines_of[ (int) $id ] ?? array();
	return $order;
}

class WC_Settings_API {
	public string $id = '';
	/** @var array<string, array<string, mixed>> */
	public array $form_fields = array();
	/** @var array<string, mixed> */
	public array $settings = array();

	public function init_settings(): void {
		$stored = get_option( 'woocommerce_' . $this->id . '_settings', array() );
		foreach ( $this->form_fields as $key => $field ) {
			$this->settings[ $key ] = $stored[ $key ] ?? ( $field['default'] ?? '' );
		}
		$this->enabled = 'yes' === ( $this->settings['enabled'] ?? 'no' ) ? 'yes' : 'no';
	}
	public function get_option( string $key, mixed $empty_value = null ): mixed {
		return $this->settings[ $key ] ?? $empty_value;
	}
	public function process_admin_options(): bool {
		return true;
	}
}

class WC_Payment_Gateway extends WC_Settings_API {
	public string $enabled = 'no';
	public string $title = '';
	public string $description = '';
	public string $method_title = '';
	public string $method_description = '';
	public bool $has_fields = false;
	/** @var list<string> */
	public array $supports = array();

	/** As WooCommerce (without its `woocommerce_payment_gateway_supports` filter). */
	public function supports( $feature ) {
		return in_array( $feature, $this->supports, true );
	}
	public function is_available(): bool {
		return 'yes' === $this->enabled;
	}
	public function get_return_url( ?WC_Order $order = null ): string {
		return null === $order ? home_url( '/checkout/order-received/' ) : home_url( '/checkout/order-received/' . $order->get_id() . '/?key=' . $order->get_order_key() );
	}
}

final class RPS_Stub_WooCommerce {
	public ?WC_Cart $cart = null;
	public function __construct() {
		$this->cart = RPS_Stub_State::$cart;
	}
	public function payment_gateways(): RPS_Stub_Payment_Gateways {
		return new RPS_Stub_Payment_Gateways();
	}
	public function api_request_url( string $request ): string {
		return home_url( '/wc-api/' . $request . '/' );
	}
	public function mailer(): RPS_Stub_Mailer {
		return new RPS_Stub_Mailer(); // tests/stubs/emails.php
	}
}

final class RPS_Stub_Payment_Gateways {
	/** @return array<string, WC_Payment_Gateway> */
	public function payment_gateways(): array {
		return RPS_Stub_State::$gateways;
	}
}

function WC(): RPS_Stub_WooCommerce {
	return new RPS_Stub_WooCommerce();
}

function wc_add_notice( string $message, string $type = 'success' ): void {
	RPS_Stub_State::$notices[] = array( $message, $type );
}

final class RPS_Stub_Logger {
	/** @param array<string, mixed> $context */
	public function log( string $level, string $message, array $context = array() ): void {
		RPS_Stub_State::$logs[] = array( $level, $message );
	}
}

function wc_get_logger(): RPS_Stub_Logger {
	return new RPS_Stub_Logger();
}

function wc_format_decimal( mixed $number, int|bool $dp = false ): string {
	return false === $dp ? (string) $number : number_format( (float) $number, (int) $dp, '.', '' );
}

function is_order_received_page(): bool {
	return RPS_Stub_State::$order_received_page;
}
function wc_rand_hash(): string {
	return bin2hex( random_bytes( 20 ) );
}
function wc_api_hash( string $data ): string {
	return hash_hmac( 'sha256', $data, 'wc-api' );
}

/** A product kept in RPS_Stub_State::$products: meta, price, type, tax class. */
class WC_Product {
	/** @var array<string, mixed> */
	public array $meta = array();
	public int $saves  = 0;

	/** @param list<int> $children */
	public function __construct( private int $id, private string $name = 'Coffee box', private string $price = '20.00', private string $type = 'simple', private array $children = array() ) {
		RPS_Stub_State::$products[ $id ] = $this;
	}
	public function get_id(): int {
		return $this->id;
	}
	public function get_name(): string {
		return $this->name;
	}
	public function get_price(): string {
		return $this->price;
	}
	/** @param string|list<string> $type */
	public function is_type( string|array $type ): bool {
		return in_array( $this->type, (array) $type, true );
	}
	/** @return list<int> */
	public function get_children(): array {
		return $this->children;
	}
	public function is_taxable(): bool {
		return true;
	}
	public function get_tax_class(): string {
		return '';
	}
	public function get_meta( string $key ): mixed {
		return $this->meta[ $key ] ?? '';
	}
	public function update_meta_data( string $key, mixed $value ): void {
		$this->meta[ $key ] = $value;
	}
	public function delete_meta_data( string $key ): void {
		unset( $this->meta[ $key ] );
	}
	public function save(): int {
		++$this->saves;
		return $this->id;
	}
}

function wc_get_product( mixed $id ): WC_Product|false {
	return RPS_Stub_State::$products[ (int) $id ] ?? false;
}

class WC_Order_Item {}

class WC_Order_Item_Product extends WC_Order_Item {
	public function __construct( private ?WC_Product $product, private int $quantity = 1, private int $id = 0, private int $variation_id = 0 ) {}
	public function get_id(): int {
		return $this->id;
	}
	public function get_product_id(): int {
		return null === $this->product ? 0 : $this->product->get_id();
	}
	public function get_variation_id(): int {
		return $this->variation_id;
	}
	/** @var array<string, mixed> the line's meta */
	public array $meta = array();
	public function add_meta_data( string $key, mixed $value, bool $unique = false ): void {
		$this->meta[ $key ] = $value;
	}
	public function get_meta( string $key ): mixed {
		return $this->meta[ $key ] ?? '';
	}
	public function get_product(): WC_Product|false {
		return $this->product ?? false;
	}
	public function get_quantity(): int {
		return $this->quantity;
	}
}

/** The cart: its lines (with 'data' the product) and the fees added to it. */
class WC_Cart {
	/** @var list<array{0: string, 1: float, 2: bool, 3: string}> */
	public array $fees = array();
	/** @param array<string, array<string, mixed>> $items */
	public function __construct( public array $items = array() ) {}
	/** @return array<string, array<string, mixed>> */
	public function get_cart(): array {
		return $this->items;
	}
	public function add_fee( string $name, float $amount, bool $taxable = false, string $tax_class = '' ): void {
		$this->fees[] = array( $name, $amount, $taxable, $tax_class );
	}
}

final class WC_Admin_Meta_Boxes {
	public static function add_error( string $text ): void {
		RPS_Stub_State::$admin_errors[] = $text;
	}
}

/** Prices as the stub store shows them: the decimal separator option, a € sign, VAT 21 % when "incl" is set. */
function wc_get_price_decimal_separator(): string {
	return (string) get_option( 'woocommerce_price_decimal_sep', '.' );
}
/** @param array<string, mixed> $args `currency` (EUR: €, else its code before the amount) */
function wc_price( float|string $price, array $args = array() ): string {
	$currency = (string) ( $args['currency'] ?? 'EUR' );
	$symbol   = 'EUR' === $currency ? '€' : $currency . ' ';
	return '<span class="amount">' . $symbol . number_format( (float) $price, 2, wc_get_price_decimal_separator(), '' ) . '</span>';
}
/** @param array<string, mixed> $args */
function wc_get_price_to_display( WC_Product $product, array $args = array() ): float {
	$price = (float) ( $args['price'] ?? $product->get_price() ) * (int) ( $args['qty'] ?? 1 );
	$key   = 'cart' === ( $args['display_context'] ?? 'shop' ) ? 'woocommerce_tax_display_cart' : 'woocommerce_tax_display_shop';
	return 'incl' === get_option( $key, 'excl' ) ? round( $price * 1.21, 2 ) : $price;
}

function get_woocommerce_currency_symbol(): string {
	return '€';
}
function wc_format_localized_price( string $value ): string {
	return str_replace( '.', wc_get_price_decimal_separator(), $value );
}
/** The editor's fields, printed as name=value so a test can read what the form shows. @param array<string, mixed> $field */
function woocommerce_wp_text_input( array $field ): void {
	echo '[' . esc_attr( (string) ( $field['name'] ?? $field['id'] ) ) . '=' . esc_attr( (string) ( $field['value'] ?? '' ) ) . ']';
}
/** @param array<string, mixed> $field */
function woocommerce_wp_checkbox( array $field ): void {
	woocommerce_wp_text_input( $field );
}
/** @param array<string, mixed> $field */
function woocommerce_wp_select( array $field ): void {
	woocommerce_wp_text_input( $field );
}
