<?php
/** WordPress and WooCommerce functions used by My Account, the admin list and the dashboard widget. */

const DAY_IN_SECONDS = 86400;

function get_user_meta( int $user_id, string $key = '', bool $single = false ): mixed {
	return RPS_Stub_State::$user_meta[ $user_id ][ $key ] ?? ( $single ? '' : array() );
}
function update_user_meta( int $user_id, string $key, mixed $value ): bool {
	RPS_Stub_State::$user_meta[ $user_id ][ $key ] = $value;
	return true;
}
function is_user_logged_in(): bool {
	return RPS_Stub_State::$user_id > 0;
}

/** A nonce as WordPress ties it: to the action and the user. */
function wp_create_nonce( string $action = '' ): string {
	return substr( hash_hmac( 'sha256', $action . '|' . RPS_Stub_State::$user_id, 'nonce-salt' ), 0, 10 );
}
function wp_verify_nonce( string $nonce, string $action = '' ): int|false {
	return '' !== $nonce && hash_equals( wp_create_nonce( $action ), $nonce ) ? 1 : false;
}
function wp_nonce_field( string $action = '', string $name = '_wpnonce', bool $referer = true, bool $display = true ): string {
	return '<input type="hidden" name="' . esc_attr( $name ) . '" value="' . wp_create_nonce( $action ) . '">';
}
function wp_nonce_url( string $url, string $action = '', string $name = '_wpnonce' ): string {
	return add_query_arg( array( $name => wp_create_nonce( $action ) ), $url );
}
/** As WordPress: a missing or wrong nonce ends the request ("The link you followed has expired"). */
function check_admin_referer( string $action = '', string $name = '_wpnonce' ): int {
	$nonce = (string) ( $_REQUEST[ $name ] ?? '' ); // phpcs:ignore
	if ( false === wp_verify_nonce( $nonce, $action ) ) {
		throw new RPS_Stub_Exit( 403 );
	}
	return 1;
}
/** @param array<string, mixed> $args */
function wp_die( string $message = '', string $title = '', array $args = array() ): never {
	throw new RPS_Stub_Exit( (int) ( $args['response'] ?? 500 ) );
}
/** The site's time zone: Europe/Amsterdam in the tests, as the service's default APP_TIMEZONE. */
function wp_date( string $format, ?int $timestamp = null ): string {
	return ( new DateTimeImmutable( '@' . ( $timestamp ?? time() ) ) )->setTimezone( new DateTimeZone( 'Europe/Amsterdam' ) )->format( $format );
}
function esc_attr__( string $text, string $domain = 'default' ): string {
	return esc_attr( $text );
}
function flush_rewrite_rules( bool $hard = true ): void {
	RPS_Stub_State::$options['stub_rewrite_flushes'] = (int) ( RPS_Stub_State::$options['stub_rewrite_flushes'] ?? 0 ) + 1;
}

function wc_get_account_endpoint_url( string $endpoint ): string {
	return home_url( '/my-account/' . $endpoint . '/' );
}

/**
 * The stored orders a query asks for: by customer, by one meta value (`=` or `LIKE`), newest first.
 *
 * @param array<string, mixed> $query
 * @return list<WC_Order>
 */
function wc_get_orders( array $query ): array {
	$found = array();
	foreach ( RPS_Stub_State::$orders as $data ) {
		$order = new WC_Order( $data );
		if ( isset( $query['customer_id'] ) && $order->get_customer_id() !== (int) $query['customer_id'] ) {
			continue;
		}
		if ( isset( $query['meta_key'] ) ) {
			$value = (string) $order->get_meta( (string) $query['meta_key'] );
			$match = 'LIKE' === ( $query['meta_compare'] ?? '=' ) ? str_contains( $value, (string) $query['meta_value'] ) : $value === (string) $query['meta_value'];
			if ( ! $match ) {
				continue;
			}
		}
		$found[ $order->get_id() ] = $order;
	}
	krsort( $found );
	return array_slice( array_values( $found ), 0, (int) ( $query['limit'] ?? 10 ) );
}

/** WordPress's list table, as far as the admin list uses it: the rows' cells and the views. */
class WP_List_Table {
	/** @var list<array<string, mixed>> */
	public $items = array();
	/** @var array<int, mixed> */
	protected $_column_headers = array();
	/** @var array<string, int> */
	public array $pagination = array();

	/** @param array<string, mixed> $args */
	public function __construct( array $args = array() ) {}

	/** @param array<string, int> $args */
	protected function set_pagination_args( array $args ): void {
		$this->pagination = $args;
	}
	/** @return array<string, string> */
	protected function get_views() {
		return array();
	}
	public function views(): void {
		echo '<ul class="subsubsub">' . implode( ' | ', $this->get_views() ) . '</ul>';
	}
	/** @param array<string, string> $actions */
	protected function row_actions( array $actions, bool $always_visible = false ): string {
		return '<div class="row-actions">' . implode( ' | ', $actions ) . '</div>';
	}
	public function display(): void {
		echo '<table class="wp-list-table">';
		if ( array() === $this->items ) {
			echo '<tr class="no-items"><td>';
			$this->no_items();
			echo '</td></tr>';
		}
		foreach ( $this->items as $item ) {
			echo '<tr>';
			foreach ( array_keys( $this->_column_headers[0] ) as $column ) {
				$method = 'column_' . $column;
				echo '<td class="column-' . esc_attr( $column ) . '">' . ( method_exists( $this, $method ) ? $this->$method( $item ) : $this->column_default( $item, $column ) ) . $this->handle_row_actions( $item, $column, $this->_column_headers[3] ) . '</td>';
			}
			echo '</tr>';
		}
		echo '</table>';
	}
	public function no_items(): void {}
	/** @param array<string, mixed> $item */
	protected function handle_row_actions( $item, $column_name, $primary ) {
		return '';
	}
	/** @param array<string, mixed> $item */
	protected function column_default( $item, $column_name ) {
		return '';
	}
}
