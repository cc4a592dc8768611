<?php
defined( 'ABSPATH' ) || exit;

use Automattic\WooCommerce\Blocks\Payments\Integrations\AbstractPaymentMethodType;

/**
 * The gateway in the Checkout block: the same title, description and methods as the classic checkout
 * (translated here, in PHP; the script shows what it is given).
 */
final class RPS_Blocks_Support extends AbstractPaymentMethodType {

	protected $name = RPS_Gateway::ID;

	public function initialize(): void {
		$this->settings = (array) get_option( 'woocommerce_rps_settings', array() );
	}

	public function is_active(): bool {
		// As the classic gateway: hidden while the service cannot say which methods it offers (asked quickly, failures kept a minute).
		return 'yes' === ( $this->settings['enabled'] ?? 'no' ) && RPS_Settings::is_configured()
			&& array() !== RPS_Gateway::offered_methods( RPS_Api_Client::from_settings(), RPS_Cart_Gateways::cart_needs_mandate() );
	}

	/** @return list<string> */
	public function get_payment_method_script_handles(): array {
		wp_register_script( 'rps-checkout-block', plugins_url( 'assets/checkout-block.js', RPS_PLUGIN_FILE ), array( 'wc-blocks-registry', 'wc-settings', 'wp-element', 'wp-html-entities' ), RPS_VERSION, true );
		return array( 'rps-checkout-block' );
	}

	/** @return array<string, mixed> */
	public function get_payment_method_data(): array {
		// A cart with a subscription: only the methods that can create a mandate, as in the classic checkout.
		$methods = RPS_Gateway::offered_methods( RPS_Api_Client::from_settings(), RPS_Cart_Gateways::cart_needs_mandate() );
		return array(
			'title'       => (string) ( $this->settings['title'] ?? __( 'Pay online', 'recurring-payments-bridge' ) ),
			'description' => (string) ( $this->settings['description'] ?? '' ),
			'methods'     => array_map(
				static fn ( string $method ): array => array(
					'id'    => $method,
					'label' => RPS_Gateway::method_label( $method ),
				),
				$methods
			),
			'supports'    => array( 'products' ),
		);
	}
}
