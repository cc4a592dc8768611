<?php
defined( 'ABSPATH' ) || exit;

/** The admin list's table: one page of the service's subscriptions, already read. */
final class RPS_Subscriptions_List_Table extends WP_List_Table {

	/**
	 * @param list<array<string, mixed>> $rows
	 * @param array<string, int>         $open_follow_ups subscription id → pending follow-ups
	 */
	public function __construct(
		private readonly array $rows,
		private readonly int $total,
		private readonly int $per_page,
		private readonly string $status,
		private readonly array $open_follow_ups
	) {
		parent::__construct(
			array(
				'singular' => 'subscription',
				'plural'   => 'subscriptions',
				'ajax'     => false,
			)
		);
	}

	/** @return array<string, string> */
	public function get_columns(): array {
		return array(
			'name'       => __( 'Subscription', 'recurring-payments-bridge' ),
			'customer'   => __( 'Customer', 'recurring-payments-bridge' ),
			'status'     => __( 'Status', 'recurring-payments-bridge' ),
			'amount'     => __( 'Amount', 'recurring-payments-bridge' ),
			'next'       => __( 'Next payment', 'recurring-payments-bridge' ),
			'mandate'    => __( 'Mandate', 'recurring-payments-bridge' ),
			'follow_ups' => __( 'Open follow-ups', 'recurring-payments-bridge' ),
			'orders'     => __( 'Orders', 'recurring-payments-bridge' ),
		);
	}

	public function prepare_items(): void {
		$this->_column_headers = array( $this->get_columns(), array(), array(), 'name' );
		$this->items           = $this->rows;
		$this->set_pagination_args(
			array(
				'total_items' => $this->total,
				'per_page'    => $this->per_page,
			)
		);
	}

	/** @return array<string, string> */
	protected function get_views(): array {
		$views = array(
			'' => sprintf( '<a href="%s"%s>%s</a>', esc_url( RPS_Admin_Subscriptions::url() ), '' === $this->status ? ' class="current"' : '', esc_html__( 'All', 'recurring-payments-bridge' ) ),
		);
		foreach ( RPS_Admin_Subscriptions::STATUSES as $status ) {
			$views[ $status ] = sprintf( '<a href="%s"%s>%s</a>', esc_url( RPS_Admin_Subscriptions::url( $status ) ), $status === $this->status ? ' class="current"' : '', esc_html( RPS_Subscriptions::status_label( $status ) ) );
		}
		return $views;
	}

	public function no_items(): void {
		esc_html_e( 'No subscriptions found.', 'recurring-payments-bridge' );
	}

	/** @param array<string, mixed> $item */
	protected function column_name( $item ): string {
		return '<strong>' . esc_html( (string) ( $item['name'] ?? $item['id'] ) ) . '</strong><br><code>' . esc_html( (string) $item['id'] ) . '</code>';
	}

	/**
	 * The row actions, under the first column (WordPress's place for them, with its toggle button).
	 *
	 * @param array<string, mixed> $item
	 */
	protected function handle_row_actions( $item, $column_name, $primary ): string {
		if ( $column_name !== $primary ) {
			return '';
		}
		$id      = (string) $item['id'];
		$actions = array();
		$labels  = array(
			RPS_Subscriptions::CANCEL => __( 'Cancel', 'recurring-payments-bridge' ),
			RPS_Subscriptions::PAUSE  => __( 'Pause', 'recurring-payments-bridge' ),
			RPS_Subscriptions::RESUME => __( 'Resume', 'recurring-payments-bridge' ),
			RPS_Subscriptions::SKIP   => __( 'Skip next payment', 'recurring-payments-bridge' ),
		);
		foreach ( RPS_Subscriptions::actions_for_status( $item ) as $action ) {
			if ( isset( $labels[ $action ] ) ) {
				$confirm            = RPS_Subscriptions::CANCEL === $action ? ' onclick="return confirm(this.dataset.confirm)" data-confirm="' . esc_attr__( 'Cancel this subscription after the period already paid?', 'recurring-payments-bridge' ) . '"' : '';
				$actions[ $action ] = sprintf( '<a href="%s"%s>%s</a>', esc_url( RPS_Admin_Subscriptions::action_url( $action, $id, $this->status ) ), $confirm, esc_html( $labels[ $action ] ) );
			}
		}
		return $this->row_actions( $actions );
	}

	/** @param array<string, mixed> $item */
	protected function column_customer( $item ): string {
		$customer = (array) ( $item['customer'] ?? array() );
		$name     = trim( (string) ( $customer['first_name'] ?? '' ) . ' ' . (string) ( $customer['last_name'] ?? '' ) );
		return esc_html( $name ) . '<br>' . esc_html( (string) ( $customer['email'] ?? '' ) );
	}

	/** @param array<string, mixed> $item */
	protected function column_status( $item ): string {
		return esc_html( RPS_Subscriptions::status_text( $item ) );
	}

	/** @param array<string, mixed> $item */
	protected function column_amount( $item ): string {
		return wp_kses_post( RPS_Subscriptions::amount_html( $item ) );
	}

	/** @param array<string, mixed> $item */
	protected function column_next( $item ): string {
		return esc_html( RPS_Subscriptions::date_text( $item['next_payment_at'] ?? null ) );
	}

	/** @param array<string, mixed> $item */
	protected function column_mandate( $item ): string {
		return '<code>' . esc_html( (string) ( $item['provider_mandate_id'] ?? '—' ) ) . '</code>';
	}

	/** @param array<string, mixed> $item */
	protected function column_follow_ups( $item ): string {
		return esc_html( (string) ( $this->open_follow_ups[ (string) $item['id'] ] ?? 0 ) );
	}

	/** @param array<string, mixed> $item */
	protected function column_orders( $item ): string {
		$links = array();
		foreach ( RPS_Subscriptions::orders_of( (string) $item['id'] ) as $order ) {
			$links[] = sprintf( '<a href="%s">#%s</a>', esc_url( $order->get_edit_order_url() ), esc_html( $order->get_order_number() ) );
		}
		return array() === $links ? '—' : implode( ', ', $links );
	}

	/** @param array<string, mixed> $item */
	protected function column_default( $item, $column_name ): string {
		return '';
	}
}
