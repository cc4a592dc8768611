<?php
/** WooCommerce classes and functions the plugin calls, as far as it uses them. */

/** An order kept in RPS_Stub_State::$orders, saved back on save() and on every status change. */
class WC_Order {

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

function wc_get_order( mixed $id ): WC_Order|false {
	$data = RPS_Stub_State::$orders[ (int) $id ] ?? null;
	return is_array( $data ) ? new WC_Order( $data ) : false;
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

	public function is_available(): bool {
		return 'yes' === $this->enabled;
	}
	public function get_return_url( ?WC_Order $order = null ): string {
		return null === $order ? home_url( '/checkout/order-received/' ) : home_url( '/checkout/order-received/' . $order->get_id() . '/?key=' . $order->get_order_key() );
	}
}

final class RPS_Stub_WooCommerce {
	public function api_request_url( string $request ): string {
		return home_url( '/wc-api/' . $request . '/' );
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
