<?php
defined( 'ABSPATH' ) || exit;

/**
 * My Account → Subscriptions: the logged-in buyer's subscriptions from the service, with the actions
 * the account allows. A buyer's service customers are those stored on their user, and those found
 * by the billing e-mail of their own orders (the address the gateway found or made the customer
 * with); every action reads the subscription again and refuses one of another customer.
 */
final class RPS_My_Account {

	public const ENDPOINT      = 'subscriptions';
	/** With WooCommerce Subscriptions active, its page keeps `subscriptions`. */
	public const WCS_ENDPOINT  = 'recurring-payments';
	public const CUSTOMER_META = '_rps_customer_ids';
	/** The endpoint the rewrite rules were flushed for: another one (WCS came or went) flushes again. */
	public const FLUSHED_OPTION = 'rps_account_endpoint';
	public const NONCE_ACTION   = 'rps-subscription-';

	public static function register(): void {
		add_filter( 'woocommerce_get_query_vars', array( self::class, 'query_vars' ) );
		add_filter( 'woocommerce_account_menu_items', array( self::class, 'menu_items' ) );
		add_filter( 'woocommerce_endpoint_' . self::endpoint() . '_title', array( self::class, 'title' ) );
		add_action( 'woocommerce_account_' . self::endpoint() . '_endpoint', array( self::class, 'render' ) );
		add_action( 'template_redirect', array( self::class, 'handle_request' ) );
		add_action( 'init', array( self::class, 'flush_when_changed' ), 20 ); // After WooCommerce added its endpoints (init, 10).
	}

	public static function endpoint(): string {
		return class_exists( 'WC_Subscriptions' ) ? self::WCS_ENDPOINT : self::ENDPOINT;
	}

	/**
	 * @param array<string, string> $vars
	 * @return array<string, string>
	 */
	public static function query_vars( array $vars ): array {
		$vars[ self::endpoint() ] = self::endpoint();
		return $vars;
	}

	/** Activation forgets the flushed endpoint, so the next page load adds the page's rewrite rule. */
	public static function activate(): void {
		delete_option( self::FLUSHED_OPTION );
	}

	public static function flush_when_changed(): void {
		if ( get_option( self::FLUSHED_OPTION ) !== self::endpoint() ) {
			flush_rewrite_rules( false );
			update_option( self::FLUSHED_OPTION, self::endpoint() );
		}
	}

	/**
	 * The menu item, after Orders.
	 *
	 * @param array<string, string> $items
	 * @return array<string, string>
	 */
	public static function menu_items( array $items ): array {
		$added = array();
		foreach ( $items as $key => $label ) {
			$added[ $key ] = $label;
			if ( 'orders' === $key ) {
				$added[ self::endpoint() ] = self::title();
			}
		}
		if ( ! isset( $added[ self::endpoint() ] ) ) {
			$added[ self::endpoint() ] = self::title();
		}
		return $added;
	}

	public static function title(): string {
		return class_exists( 'WC_Subscriptions' ) ? __( 'Recurring payments', 'recurring-payments-bridge' ) : __( 'Subscriptions', 'recurring-payments-bridge' );
	}

	public static function page_url(): string {
		return wc_get_account_endpoint_url( self::endpoint() );
	}

	/**
	 * The service customers of a user: those stored, and those with the billing e-mail of the user's
	 * own orders (newly found ones are stored). WooCommerce does not check an account's e-mail
	 * address, so the account's own e-mail alone never opens another person's subscriptions.
	 *
	 * @return list<string>
	 */
	public static function customer_ids( int $user_id, RPS_Api_Client $api ): array {
		$stored = get_user_meta( $user_id, self::CUSTOMER_META, true );
		$ids    = is_array( $stored ) ? array_values( array_filter( $stored, 'is_string' ) ) : array();
		$emails = array();
		foreach ( wc_get_orders( array( 'customer_id' => $user_id, 'limit' => 20 ) ) as $order ) {
			$email = strtolower( trim( $order->get_billing_email() ) );
			if ( '' !== $email ) {
				$emails[ $email ] = true;
			}
		}
		foreach ( array_slice( array_keys( $emails ), 0, 5 ) as $email ) {
			$found = $api->get( '/api/v2/customers?email=' . rawurlencode( $email ) . '&per_page=100' );
			foreach ( (array) ( $found['data'] ?? array() ) as $customer ) {
				// The service matches the address exactly; checked again so nothing else slips in.
				if ( is_array( $customer ) && strtolower( (string) ( $customer['email'] ?? '' ) ) === $email && is_string( $customer['id'] ?? null ) ) {
					$ids[] = $customer['id'];
				}
			}
		}
		$ids = array_values( array_unique( $ids ) );
		if ( $ids !== $stored ) {
			update_user_meta( $user_id, self::CUSTOMER_META, $ids );
		}
		return $ids;
	}

	/**
	 * The user's subscriptions, newest first.
	 *
	 * @param list<string> $customer_ids
	 * @return list<array<string, mixed>>
	 */
	public static function subscriptions( array $customer_ids, RPS_Api_Client $api ): array {
		$subscriptions = array();
		foreach ( $customer_ids as $customer_id ) {
			$page = $api->get( '/api/v2/subscriptions?customer_id=' . rawurlencode( $customer_id ) . '&per_page=100' );
			foreach ( (array) ( $page['data'] ?? array() ) as $subscription ) {
				if ( is_array( $subscription ) ) {
					$subscriptions[] = $subscription;
				}
			}
		}
		return array_reverse( $subscriptions );
	}

	public static function render(): void {
		echo self::html( get_current_user_id(), RPS_Api_Client::from_settings()->quick() ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- html() escapes every value.
	}

	public static function html( int $user_id, RPS_Api_Client $api ): string {
		if ( $user_id < 1 || ! RPS_Settings::is_configured() ) {
			return '';
		}
		try {
			$subscriptions = self::subscriptions( self::customer_ids( $user_id, $api ), $api );
		} catch ( RPS_Api_Error $error ) {
			RPS_Callback::log( 'error', 'A buyer\'s subscriptions could not be read: ' . $error->detail() );
			return '<p class="woocommerce-error">' . esc_html__( 'Your subscriptions cannot be shown right now. Please try again later.', 'recurring-payments-bridge' ) . '</p>';
		}
		if ( array() === $subscriptions ) {
			return '<p class="woocommerce-info">' . esc_html__( 'You have no subscriptions.', 'recurring-payments-bridge' ) . '</p>';
		}
		$portal = RPS_Subscriptions::portal( $api );
		$html   = '';
		foreach ( $subscriptions as $subscription ) {
			$html .= self::subscription_html( $subscription, $portal );
		}
		return $html;
	}

	/**
	 * @param array<string, mixed> $subscription
	 * @param array{allowed_actions: list<string>, max_pause_days: int} $portal
	 */
	private static function subscription_html( array $subscription, array $portal ): string {
		$remaining = RPS_Subscriptions::remaining_payments( $subscription );
		$rows      = array(
			__( 'Status', 'recurring-payments-bridge' )             => esc_html( RPS_Subscriptions::status_text( $subscription ) ),
			__( 'Amount', 'recurring-payments-bridge' )             => wp_kses_post( RPS_Subscriptions::amount_html( $subscription ) ),
			__( 'Next payment', 'recurring-payments-bridge' )       => esc_html( RPS_Subscriptions::date_text( $subscription['next_payment_at'] ?? null ) ),
			__( 'Remaining payments', 'recurring-payments-bridge' ) => esc_html( null === $remaining ? __( 'until cancelled', 'recurring-payments-bridge' ) : (string) $remaining ),
		);
		$orders = array();
		foreach ( RPS_Subscriptions::orders_of( (string) $subscription['id'] ) as $order ) {
			/* translators: %s: order number */
			$orders[] = sprintf( '<a href="%s">%s</a>', esc_url( $order->get_view_order_url() ), esc_html( sprintf( __( 'Order #%s', 'recurring-payments-bridge' ), $order->get_order_number() ) ) );
		}
		$rows[ __( 'Orders', 'recurring-payments-bridge' ) ] = array() === $orders ? '—' : implode( ', ', $orders );

		$html = '<section class="rps-subscription" id="' . esc_attr( (string) $subscription['id'] ) . '"><h3>' . esc_html( (string) $subscription['name'] ) . '</h3>'
			. '<table class="woocommerce-table shop_table rps-subscription-details"><tbody>';
		foreach ( $rows as $label => $value ) {
			$html .= '<tr><th>' . esc_html( $label ) . '</th><td>' . $value . '</td></tr>';
		}
		$html .= '</tbody></table>';
		foreach ( RPS_Subscriptions::buyer_actions( $subscription, $portal ) as $action ) {
			$html .= self::action_form( (string) $subscription['id'], $action, $portal['max_pause_days'] );
		}
		return $html . '</section>';
	}

	private static function action_form( string $subscription_id, string $action, int $max_pause_days ): string {
		$labels = array(
			RPS_Subscriptions::CANCEL => __( 'Cancel', 'recurring-payments-bridge' ),
			RPS_Subscriptions::PAUSE  => __( 'Pause', 'recurring-payments-bridge' ),
			RPS_Subscriptions::RESUME => __( 'Resume', 'recurring-payments-bridge' ),
			RPS_Subscriptions::SKIP   => __( 'Skip next payment', 'recurring-payments-bridge' ),
			RPS_Subscriptions::METHOD => __( 'Change payment method', 'recurring-payments-bridge' ),
		);
		$html = '<form method="post" class="rps-subscription-action" style="display:inline-block;margin:0 .5em .5em 0">'
			// One form per action: the nonce field without wp_nonce_field()'s id, which would repeat on the page.
			. '<input type="hidden" name="_wpnonce" value="' . esc_attr( wp_create_nonce( self::NONCE_ACTION . $subscription_id ) ) . '">'
			. '<input type="hidden" name="rps_subscription" value="' . esc_attr( $subscription_id ) . '">'
			. '<input type="hidden" name="rps_action" value="' . esc_attr( $action ) . '">';
		if ( RPS_Subscriptions::PAUSE === $action ) {
			$html .= '<label>' . esc_html__( 'until', 'recurring-payments-bridge' ) . ' <input type="date" name="rps_resume_at" required min="' . esc_attr( self::day( 1 ) ) . '" max="' . esc_attr( self::day( $max_pause_days ) ) . '"></label> ';
		}
		$confirm = RPS_Subscriptions::CANCEL === $action ? ' onclick="return confirm(this.dataset.confirm)" data-confirm="' . esc_attr__( 'Cancel this subscription after the period already paid?', 'recurring-payments-bridge' ) . '"' : '';
		return $html . '<button type="submit" class="button"' . $confirm . '>' . esc_html( $labels[ $action ] ) . '</button></form>';
	}

	/** The date $days from today in the store's time zone, as Y-m-d. */
	private static function day( int $days ): string {
		return wp_date( 'Y-m-d', time() + $days * DAY_IN_SECONDS );
	}

	/** The page's forms post here (before it renders): act, leave a notice, and send the buyer back. */
	public static function handle_request(): void {
		if ( 'POST' !== ( $_SERVER['REQUEST_METHOD'] ?? '' ) || ! isset( $_POST['rps_subscription'], $_POST['rps_action'] ) || ! is_user_logged_in() ) { // phpcs:ignore WordPress.Security.NonceVerification.Missing -- handle() checks it.
			return;
		}
		$redirect = self::handle( wp_unslash( $_POST ), get_current_user_id(), RPS_Api_Client::from_settings() ); // phpcs:ignore WordPress.Security.NonceVerification.Missing,WordPress.Security.ValidatedSanitizedInput.InputNotSanitized -- handle() checks and sanitizes.
		if ( str_starts_with( $redirect, self::page_url() ) ) {
			wp_safe_redirect( $redirect );
		} else {
			wp_redirect( $redirect ); // phpcs:ignore WordPress.Security.SafeRedirect.wp_redirect_wp_redirect -- the service's portal session, from its own answer.
		}
		exit;
	}

	/**
	 * One posted action: the nonce, the action allowed by the account and the status, and the
	 * subscription belonging to one of this user's customers are all checked before the service is
	 * asked to change anything. Answers where to send the buyer.
	 *
	 * @param array<string, mixed> $post
	 */
	public static function handle( array $post, int $user_id, RPS_Api_Client $api ): string {
		$back            = self::page_url();
		$subscription_id = sanitize_text_field( (string) ( $post['rps_subscription'] ?? '' ) );
		$action          = sanitize_key( (string) ( $post['rps_action'] ?? '' ) );
		if ( $user_id < 1 || ! wp_verify_nonce( (string) ( $post['_wpnonce'] ?? '' ), self::NONCE_ACTION . $subscription_id ) ) {
			wc_add_notice( __( 'The page was out of date. Please try again.', 'recurring-payments-bridge' ), 'error' );
			return $back;
		}
		try {
			$owned = self::customer_ids( $user_id, $api );
			if ( ! preg_match( '/^sub_[A-Za-z0-9]+$/', $subscription_id ) || array() === $owned ) {
				throw new RPS_Api_Error( 'Not this buyer\'s subscription', 404 );
			}
			$subscription = $api->get( '/api/v2/subscriptions/' . rawurlencode( $subscription_id ) );
			if ( ! in_array( (string) ( $subscription['customer']['id'] ?? '' ), $owned, true ) ) {
				throw new RPS_Api_Error( 'Not this buyer\'s subscription', 404 );
			}
			$portal = RPS_Subscriptions::portal( $api );
			if ( ! in_array( $action, RPS_Subscriptions::buyer_actions( $subscription, $portal ), true ) ) {
				wc_add_notice( __( 'This cannot be done with this subscription.', 'recurring-payments-bridge' ), 'error' );
				return $back;
			}
			if ( RPS_Subscriptions::METHOD === $action ) {
				$session = $api->post(
					'/api/v2/customers/' . rawurlencode( (string) $subscription['customer']['id'] ) . '/portal-sessions',
					array( 'return_url' => $back )
				);
				return (string) $session['url'];
			}
			$resume_at = null;
			if ( RPS_Subscriptions::PAUSE === $action ) {
				$resume_at = sanitize_text_field( (string) ( $post['rps_resume_at'] ?? '' ) );
				if ( ! preg_match( '/^\d{4}-\d{2}-\d{2}$/', $resume_at ) || $resume_at < self::day( 1 ) || $resume_at > self::day( $portal['max_pause_days'] ) ) {
					/* translators: %d: number of days */
					wc_add_notice( sprintf( __( 'Choose a date to resume within %d days.', 'recurring-payments-bridge' ), $portal['max_pause_days'] ), 'error' );
					return $back;
				}
			}
			RPS_Subscriptions::perform( $api, $action, $subscription, $resume_at );
			wc_add_notice( RPS_Subscriptions::done_message( $action ) );
		} catch ( RPS_Api_Error $error ) {
			if ( 404 === $error->status ) {
				wc_add_notice( __( 'That subscription was not found in your account.', 'recurring-payments-bridge' ), 'error' );
			} else {
				RPS_Callback::log( 'error', sprintf( 'A buyer\'s %s of %s failed: %s', $action, $subscription_id, $error->detail() ) );
				wc_add_notice( 0 === $error->status || $error->status >= 500 ? __( 'The subscription service could not be reached. Please try again later.', 'recurring-payments-bridge' ) : $error->getMessage(), 'error' );
			}
		}
		return $back;
	}
}
