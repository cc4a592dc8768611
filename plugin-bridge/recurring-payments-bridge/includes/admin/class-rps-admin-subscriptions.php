<?php
defined( 'ABSPATH' ) || exit;

/**
 * WooCommerce → Subscriptions ("Recurring payments" when WooCommerce Subscriptions has that name):
 * the store's subscriptions from the service, paged and filtered by status, with cancel / pause /
 * resume / skip for shop managers. Actions are links with a nonce to admin-post.php.
 */
final class RPS_Admin_Subscriptions {

	public const PAGE       = 'rps-subscriptions';
	public const ACTION     = 'rps_subscription';
	public const CAPABILITY = 'manage_woocommerce';
	public const PER_PAGE   = 20;
	public const STATUSES   = array( 'active', 'paused', 'draft', 'cancelled', 'completed' );

	public static function register(): void {
		add_action( 'admin_menu', array( self::class, 'menu' ), 60 );
		add_action( 'admin_post_' . self::ACTION, array( self::class, 'handle_request' ) );
	}

	public static function menu(): void {
		$title = class_exists( 'WC_Subscriptions' ) ? __( 'Recurring subscriptions', 'recurring-payments-bridge' ) : __( 'Subscriptions', 'recurring-payments-bridge' );
		add_submenu_page( 'woocommerce', $title, $title, self::CAPABILITY, self::PAGE, array( self::class, 'render' ) );
	}

	/**
	 * The list's address, filtered by status or to some subscriptions (the order box's link).
	 *
	 * @param list<string> $subscription_ids
	 */
	public static function url( string $status = '', array $subscription_ids = array() ): string {
		$args = array( 'page' => self::PAGE );
		if ( '' !== $status ) {
			$args['status'] = $status;
		}
		if ( array() !== $subscription_ids ) {
			$args['subscription_id'] = implode( ',', $subscription_ids );
		}
		return add_query_arg( $args, admin_url( 'admin.php' ) );
	}

	public static function render(): void {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to manage subscriptions.', 'recurring-payments-bridge' ) );
		}
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- filters of a read-only page.
		$query = array(
			'status'          => sanitize_key( (string) wp_unslash( $_GET['status'] ?? '' ) ),
			'subscription_id' => sanitize_text_field( (string) wp_unslash( $_GET['subscription_id'] ?? '' ) ),
			'paged'           => max( 1, absint( $_GET['paged'] ?? 1 ) ),
		);
		// phpcs:enable
		echo self::html( $query, RPS_Api_Client::from_settings()->quick() ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- html() escapes every value.
	}

	/** @param array{status: string, subscription_id: string, paged: int} $query */
	public static function html( array $query, RPS_Api_Client $api ): string {
		if ( ! class_exists( 'WP_List_Table' ) ) {
			require_once ABSPATH . 'wp-admin/includes/class-wp-list-table.php';
		}
		require_once __DIR__ . '/class-rps-subscriptions-list-table.php';
		$title = class_exists( 'WC_Subscriptions' ) ? __( 'Recurring subscriptions', 'recurring-payments-bridge' ) : __( 'Subscriptions', 'recurring-payments-bridge' );
		$html  = '<div class="wrap"><h1>' . esc_html( $title ) . '</h1>' . self::notice_html();
		if ( ! RPS_Settings::is_configured() ) {
			return $html . '<p>' . esc_html__( 'Enter the service address and API token under WooCommerce → Recurring payments first.', 'recurring-payments-bridge' ) . '</p></div>';
		}
		try {
			$loaded = self::load( $query, $api );
		} catch ( RPS_Api_Error $error ) {
			RPS_Callback::log( 'error', 'The subscriptions list could not be read: ' . $error->detail() );
			return $html . '<div class="notice notice-error"><p>' . esc_html__( 'The service could not be reached; the list is shown when it answers.', 'recurring-payments-bridge' ) . '</p></div></div>';
		}
		$table = new RPS_Subscriptions_List_Table( $loaded['items'], $loaded['total'], self::PER_PAGE, $query['status'], $loaded['open_follow_ups'] );
		$table->prepare_items();
		ob_start();
		$table->views();
		echo '<form method="get"><input type="hidden" name="page" value="' . esc_attr( self::PAGE ) . '">';
		$table->display();
		echo '</form>';
		return $html . (string) ob_get_clean() . '</div>';
	}

	/**
	 * One page of subscriptions and their open follow-ups, in two calls: the page, and the account's
	 * pending follow-ups (at most 100, counted per subscription). Some chosen subscriptions (from an
	 * order) are read one by one.
	 *
	 * @param array{status: string, subscription_id: string, paged: int} $query
	 * @return array{items: list<array<string, mixed>>, total: int, open_follow_ups: array<string, int>}
	 */
	public static function load( array $query, RPS_Api_Client $api ): array {
		$items = array();
		$total = 0;
		$ids   = array_filter( explode( ',', $query['subscription_id'] ), static fn ( string $id ): bool => (bool) preg_match( '/^sub_[A-Za-z0-9]+$/', $id ) );
		if ( array() !== $ids ) {
			foreach ( array_slice( array_values( $ids ), 0, self::PER_PAGE ) as $id ) {
				$items[] = $api->get( '/api/v2/subscriptions/' . rawurlencode( $id ) );
			}
			$total = count( $items );
		} else {
			$params = array(
				'page'     => $query['paged'],
				'per_page' => self::PER_PAGE,
			);
			if ( in_array( $query['status'], self::STATUSES, true ) ) {
				$params['status'] = $query['status'];
			}
			$page  = $api->get( '/api/v2/subscriptions?' . http_build_query( $params ) );
			$items = array_values( array_filter( (array) ( $page['data'] ?? array() ), 'is_array' ) );
			$total = (int) ( $page['meta']['total'] ?? count( $items ) );
		}
		$open = array();
		if ( array() !== $items ) {
			$follow_ups = $api->get( '/api/v2/follow-ups?status=pending&per_page=100' );
			foreach ( (array) ( $follow_ups['data'] ?? array() ) as $follow_up ) {
				$id = is_array( $follow_up ) ? (string) ( $follow_up['subscription']['id'] ?? '' ) : '';
				if ( '' !== $id ) {
					$open[ $id ] = ( $open[ $id ] ?? 0 ) + 1;
				}
			}
		}
		return array(
			'items'           => $items,
			'total'           => $total,
			'open_follow_ups' => $open,
		);
	}

	/**
	 * A row action's link: admin-post.php with the action, the subscription and a nonce, and the list's
	 * status view to return to.
	 */
	public static function action_url( string $action, string $subscription_id, string $status = '' ): string {
		$args = array(
			'action'       => self::ACTION,
			'do'           => $action,
			'subscription' => $subscription_id,
		);
		if ( in_array( $status, self::STATUSES, true ) ) {
			$args['status'] = $status;
		}
		return wp_nonce_url( add_query_arg( $args, admin_url( 'admin-post.php' ) ), self::ACTION . '-' . $action . '-' . $subscription_id );
	}

	public static function handle_request(): void {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- handle() checks the nonce.
		$redirect = self::handle( wp_unslash( $_GET ), RPS_Api_Client::from_settings() );
		wp_safe_redirect( $redirect );
		exit;
	}

	/**
	 * One row action, after the capability and the nonce. Cancel ends the subscription after the
	 * period paid; pause has no end date (Resume ends it). The outcome is shown once on the list, in
	 * the status view the action was taken in.
	 *
	 * @param array<string, mixed> $get
	 */
	public static function handle( array $get, RPS_Api_Client $api ): string {
		$action          = sanitize_key( (string) ( $get['do'] ?? '' ) );
		$subscription_id = sanitize_text_field( (string) ( $get['subscription'] ?? '' ) );
		if ( ! current_user_can( self::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to manage subscriptions.', 'recurring-payments-bridge' ), '', array( 'response' => 403 ) );
		}
		check_admin_referer( self::ACTION . '-' . $action . '-' . $subscription_id );
		// Back to the view the action was taken in (the Active list stays the Active list).
		$status = sanitize_key( (string) ( $get['status'] ?? '' ) );
		$back   = self::url( in_array( $status, self::STATUSES, true ) ? $status : '' );
		try {
			if ( ! preg_match( '/^sub_[A-Za-z0-9]+$/', $subscription_id ) ) {
				throw new RPS_Api_Error( 'Not a subscription id', 404 );
			}
			$subscription = $api->get( '/api/v2/subscriptions/' . rawurlencode( $subscription_id ) );
			if ( ! in_array( $action, array_diff( RPS_Subscriptions::actions_for_status( $subscription ), array( RPS_Subscriptions::METHOD ) ), true ) ) {
				self::notice( 'error', __( 'This cannot be done with this subscription.', 'recurring-payments-bridge' ) );
				return $back;
			}
			RPS_Subscriptions::perform( $api, $action, $subscription );
			self::notice( 'success', RPS_Subscriptions::done_message( $action ) );
		} catch ( RPS_Api_Error $error ) {
			RPS_Callback::log( 'error', sprintf( 'The %s of %s failed: %s', $action, $subscription_id, $error->detail() ) );
			/* translators: %s: the service's message */
			self::notice( 'error', sprintf( __( 'The service refused: %s', 'recurring-payments-bridge' ), $error->getMessage() ) );
		}
		return $back;
	}

	/** The outcome of an action, for the next view of the list by the same user. */
	private static function notice( string $type, string $message ): void {
		set_transient( 'rps_subscriptions_notice_' . get_current_user_id(), array( $type, $message ), 60 );
	}

	private static function notice_html(): string {
		$key    = 'rps_subscriptions_notice_' . get_current_user_id();
		$notice = get_transient( $key );
		if ( ! is_array( $notice ) ) {
			return '';
		}
		delete_transient( $key );
		return sprintf( '<div class="notice notice-%s is-dismissible"><p>%s</p></div>', esc_attr( (string) $notice[0] ), esc_html( (string) $notice[1] ) );
	}
}
