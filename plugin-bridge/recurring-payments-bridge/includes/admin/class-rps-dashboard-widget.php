<?php
defined( 'ABSPATH' ) || exit;

/**
 * A dashboard widget for shop managers: active subscriptions, monthly recurring revenue and open
 * follow-ups, as the service sums them (`GET /api/v2/subscription-summary`), cached five minutes.
 */
final class RPS_Dashboard_Widget {

	public const TRANSIENT = 'rps_subscription_summary';
	public const SECONDS   = 300;

	public static function register(): void {
		add_action( 'wp_dashboard_setup', array( self::class, 'add' ) );
	}

	public static function add(): void {
		if ( ! current_user_can( RPS_Admin_Subscriptions::CAPABILITY ) || ! RPS_Settings::is_configured() ) {
			return;
		}
		wp_add_dashboard_widget( 'rps_subscriptions', __( 'Subscriptions', 'recurring-payments-bridge' ), array( self::class, 'render' ) );
	}

	public static function render(): void {
		echo self::html( RPS_Api_Client::from_settings()->quick() ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- html() escapes every value.
	}

	public static function html( RPS_Api_Client $api ): string {
		if ( ! current_user_can( RPS_Admin_Subscriptions::CAPABILITY ) ) {
			return '';
		}
		$summary = get_transient( self::TRANSIENT );
		if ( ! is_array( $summary ) ) {
			try {
				$summary = $api->get( '/api/v2/subscription-summary' );
			} catch ( RPS_Api_Error $error ) {
				RPS_Callback::log( 'error', 'The subscription summary could not be read: ' . $error->detail() );
				return '<p>' . esc_html__( 'The service could not be reached.', 'recurring-payments-bridge' ) . '</p>';
			}
			set_transient( self::TRANSIENT, $summary, self::SECONDS );
		}
		$rows = array(
			array( __( 'Active subscriptions', 'recurring-payments-bridge' ), esc_html( (string) (int) ( $summary['active_subscriptions'] ?? 0 ) ), RPS_Admin_Subscriptions::url( 'active' ) ),
			array( __( 'Paused subscriptions', 'recurring-payments-bridge' ), esc_html( (string) (int) ( $summary['paused_subscriptions'] ?? 0 ) ), RPS_Admin_Subscriptions::url( 'paused' ) ),
			array( __( 'Monthly recurring revenue', 'recurring-payments-bridge' ), wp_kses_post( wc_price( (string) ( $summary['monthly_recurring_revenue'] ?? '0.00' ), array( 'currency' => (string) ( $summary['currency'] ?? 'EUR' ) ) ) ), '' ),
			array( __( 'Open follow-ups', 'recurring-payments-bridge' ), esc_html( (string) (int) ( $summary['open_follow_ups'] ?? 0 ) ), '' ),
		);
		$html = '<table class="widefat striped"><tbody>';
		foreach ( $rows as [ $label, $value, $url ] ) {
			$label = '' === $url ? esc_html( $label ) : sprintf( '<a href="%s">%s</a>', esc_url( $url ), esc_html( $label ) );
			$html .= '<tr><th scope="row">' . $label . '</th><td>' . $value . '</td></tr>';
		}
		return $html . '</tbody></table><p><a href="' . esc_url( RPS_Admin_Subscriptions::url() ) . '">' . esc_html__( 'All subscriptions', 'recurring-payments-bridge' ) . '</a></p>';
	}
}
