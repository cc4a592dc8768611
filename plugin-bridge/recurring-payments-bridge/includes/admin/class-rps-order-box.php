<?php
defined( 'ABSPATH' ) || exit;

/**
 * A box on the order screen (classic and HPOS): the service's payments for the order, the
 * subscriptions it started and their follow-ups, with the payment page while it can still be paid.
 * Read from `GET /api/v2/shop/orders/{id}` when the screen opens.
 */
final class RPS_Order_Box {

	public static function register(): void {
		add_action( 'add_meta_boxes', array( self::class, 'add' ) );
	}

	public static function add(): void {
		$screen = class_exists( \Automattic\WooCommerce\Internal\DataStores\Orders\CustomOrdersTableController::class )
			&& wc_get_container()->get( \Automattic\WooCommerce\Internal\DataStores\Orders\CustomOrdersTableController::class )->custom_orders_table_usage_is_enabled()
			? wc_get_page_screen_id( 'shop-order' )
			: 'shop_order';
		add_meta_box( 'rps-order-box', __( 'Recurring payments', 'recurring-payments-bridge' ), array( self::class, 'render' ), $screen, 'side' );
	}

	/** @param WP_Post|WC_Order $post_or_order */
	public static function render( $post_or_order ): void {
		$order = $post_or_order instanceof WC_Order ? $post_or_order : wc_get_order( $post_or_order->ID );
		if ( ! $order instanceof WC_Order || ! RPS_Settings::is_configured() ) {
			return;
		}
		// The order screen waits 3 s at most, and not at all for a minute after the service did not answer.
		echo self::html( $order, RPS_Api_Client::from_settings()->quick() ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- html() escapes every value.
	}

	public static function html( WC_Order $order, RPS_Api_Client $api ): string {
		try {
			$view = $api->get( '/api/v2/shop/orders/' . $order->get_id() );
		} catch ( RPS_Api_Error $error ) {
			if ( 404 === $error->status ) {
				return '<p>' . esc_html__( 'The service has no payment for this order.', 'recurring-payments-bridge' ) . '</p>';
			}
			RPS_Callback::log( 'error', sprintf( 'Order %d could not be read from the service: %s', $order->get_id(), $error->detail() ) );
			return '<p>' . esc_html__( 'The service could not be reached.', 'recurring-payments-bridge' ) . '</p>';
		}
		$html = '<p><strong>' . esc_html__( 'Payments', 'recurring-payments-bridge' ) . '</strong></p><ul>';
		foreach ( (array) ( $view['payments'] ?? array() ) as $payment ) {
			$html .= sprintf( '<li>%s — %s %s', esc_html( (string) $payment['id'] ), esc_html( (string) $payment['status'] ), esc_html( (string) $payment['currency'] . ' ' . (string) $payment['amount'] ) );
			if ( ! empty( $payment['provider_checkout_url'] ) ) {
				$html .= sprintf( ' <a href="%s" target="_blank" rel="noopener">%s</a>', esc_url( (string) $payment['provider_checkout_url'] ), esc_html__( 'payment page', 'recurring-payments-bridge' ) );
			}
			$html .= '</li>';
		}
		$html .= '</ul>';
		if ( ! empty( $view['subscriptions'] ) ) {
			$html .= '<p><strong>' . esc_html__( 'Subscriptions', 'recurring-payments-bridge' ) . '</strong></p><ul>';
			foreach ( (array) $view['subscriptions'] as $subscription ) {
				/* translators: 1: subscription name, 2: status, 3: next payment date */
				$html .= '<li>' . esc_html( sprintf( __( '%1$s — %2$s, next payment %3$s', 'recurring-payments-bridge' ), (string) $subscription['name'], RPS_Subscriptions::status_text( (array) $subscription ), RPS_Subscriptions::date_text( $subscription['next_payment_at'] ?? null ) ) ) . '</li>';
			}
			$html .= '</ul>';
			$ids   = array_values( array_filter( array_map( static fn ( $subscription ): string => (string) ( $subscription['id'] ?? '' ), (array) $view['subscriptions'] ) ) );
			$html .= sprintf( '<p><a href="%s">%s</a></p>', esc_url( RPS_Admin_Subscriptions::url( '', $ids ) ), esc_html__( 'Manage these subscriptions', 'recurring-payments-bridge' ) );
		}
		if ( ! empty( $view['follow_ups'] ) ) {
			$html .= '<p><strong>' . esc_html__( 'Follow-ups', 'recurring-payments-bridge' ) . '</strong></p><ul>';
			foreach ( (array) $view['follow_ups'] as $follow_up ) {
				/* translators: 1: follow-up type, 2: status, 3: retries done */
				$html .= '<li>' . esc_html( sprintf( __( '%1$s — %2$s (%3$d retries)', 'recurring-payments-bridge' ), (string) $follow_up['type'], (string) $follow_up['status'], (int) $follow_up['retries_done'] ) ) . '</li>';
			}
			$html .= '</ul>';
		}
		return $html;
	}
}
