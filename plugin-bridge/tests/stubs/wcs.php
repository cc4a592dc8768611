<?php
/**
 * WooCommerce Subscriptions as far as the plugin uses it: its subscriptions (orders of their own kind,
 * kept with the orders), wcs_get_subscription, the related-order store; and the WordPress functions
 * only that code calls. The extension counts as active when a test defines WC_Subscriptions.
 */

/** The extension's subscription: an order with dates and the statuses of a subscription. */
class WC_Subscription extends WC_Order {
	public function get_parent_id(): int {
		return (int) ( $this->stub_data()['parent_id'] ?? 0 );
	}
	public function get_date( string $type ): string {
		return (string) ( $this->stub_data()['dates'][ $type ] ?? '' );
	}
	/** @param array<string, string> $dates */
	public function update_dates( array $dates ): void {
		RPS_Stub_State::$orders[ $this->get_id() ]['dates'] = $dates + ( $this->stub_data()['dates'] ?? array() );
	}
	/** As the extension: its status hook for the gateway runs after the change. */
	public function update_status( string $status, string $note = '' ): bool {
		parent::update_status( $status, $note );
		RPS_Stub_State::$options['stub_wcs_status_changes'][] = array( $this->get_id(), $status );
		$hook = RPS_Stub_State::$options['stub_wcs_status_hook'] ?? null;
		if ( is_callable( $hook ) ) {
			$hook( $this, $status );
		}
		return true;
	}
}

function wcs_get_subscription( mixed $id ): WC_Subscription|false {
	$data = RPS_Stub_State::$orders[ (int) $id ] ?? null;
	return is_array( $data ) && 'shop_subscription' === ( $data['type'] ?? '' ) ? new WC_Subscription( $data ) : false;
}

/** The extension's related-order store: the relations added, as [order id, subscription id, type]. */
final class WCS_Related_Order_Store {
	private static ?self $instance = null;
	public static function instance(): self {
		return self::$instance ??= new self();
	}
	public function add_relation( WC_Order $order, WC_Order $subscription, string $relation_type ): void {
		RPS_Stub_State::$options['stub_wcs_relations'][] = array( $order->get_id(), $subscription->get_id(), $relation_type );
	}
}

/** The hooks running now (tests set them in RPS_Stub_State::$options['stub_doing']). */
function doing_action( ?string $hook = null ): bool {
	return in_array( $hook, (array) ( RPS_Stub_State::$options['stub_doing'] ?? array() ), true );
}
function wp_timezone(): DateTimeZone {
	return new DateTimeZone( 'Europe/Amsterdam' );
}
