<?php
defined( 'ABSPATH' ) || exit;

/**
 * What My Account and the admin list share about the service's subscriptions: how one is shown
 * (amount, remaining payments, its store orders), which actions its status allows, and the API
 * calls those actions make. Who may act on which subscription is decided by the callers.
 */
final class RPS_Subscriptions {

	/** The account's portal settings (contract: `GET /api/v2/shop` → `portal`), cached briefly. */
	public const PORTAL_TRANSIENT = 'rps_portal';
	public const PORTAL_SECONDS   = 300;
	/** Renewal orders carry the service subscription's id; a checkout order the ids it started. */
	public const ORDER_META       = '_rps_subscription_id';
	public const CHECKOUT_META    = '_rps_subscription_ids';

	public const CANCEL = 'cancel';
	public const PAUSE  = 'pause';
	public const RESUME = 'resume';
	public const SKIP   = 'skip';
	public const METHOD = 'change-method';

	/**
	 * The actions the account lets buyers take, and the longest pause. When the service does not say
	 * (an older service, or no answer), buyers get no actions: closed rather than open.
	 *
	 * @return array{allowed_actions: list<string>, max_pause_days: int}
	 */
	public static function portal( RPS_Api_Client $api ): array {
		$cached = get_transient( self::PORTAL_TRANSIENT );
		if ( is_array( $cached ) ) {
			return $cached;
		}
		$portal = array(
			'allowed_actions' => array(),
			'max_pause_days'  => 0,
		);
		try {
			$shop = $api->get( '/api/v2/shop' );
			if ( is_array( $shop['portal'] ?? null ) ) {
				$portal['allowed_actions'] = array_values( array_filter( (array) ( $shop['portal']['allowed_actions'] ?? array() ), 'is_string' ) );
				$portal['max_pause_days']  = max( 0, (int) ( $shop['portal']['max_pause_days'] ?? 0 ) );
			}
		} catch ( RPS_Api_Error $error ) {
			RPS_Callback::log( 'warning', 'The portal settings could not be read: ' . $error->detail() );
			return $portal; // Not cached: asked again on the next page.
		}
		set_transient( self::PORTAL_TRANSIENT, $portal, self::PORTAL_SECONDS );
		return $portal;
	}

	/**
	 * The actions a subscription's status allows (resume goes with pause).
	 *
	 * @param array<string, mixed> $subscription
	 * @return list<string>
	 */
	public static function actions_for_status( array $subscription ): array {
		$status = (string) ( $subscription['status'] ?? '' );
		$open   = empty( $subscription['cancel_at'] );
		return match ( $status ) {
			'active' => $open ? array( self::CANCEL, self::PAUSE, self::SKIP, self::METHOD ) : array( self::METHOD ),
			'paused' => $open ? array( self::CANCEL, self::RESUME, self::METHOD ) : array( self::RESUME, self::METHOD ),
			'draft'  => $open ? array( self::CANCEL, self::METHOD ) : array( self::METHOD ),
			default  => array(),
		};
	}

	/**
	 * What the buyer may do with a subscription: what its status allows and the account allows.
	 *
	 * @param array<string, mixed> $subscription
	 * @param array{allowed_actions: list<string>, max_pause_days: int} $portal
	 * @return list<string>
	 */
	public static function buyer_actions( array $subscription, array $portal ): array {
		$allowed = $portal['allowed_actions'];
		if ( in_array( self::PAUSE, $allowed, true ) && $portal['max_pause_days'] < 1 ) {
			$allowed = array_diff( $allowed, array( self::PAUSE ) );
		}
		if ( in_array( self::PAUSE, $allowed, true ) ) {
			$allowed[] = self::RESUME;
		}
		return array_values( array_intersect( self::actions_for_status( $subscription ), $allowed ) );
	}

	/**
	 * Payments still to come: the rules' times minus times done; null when a rule runs until cancelled.
	 * None once it ended, nor when it is cancelled before its next payment (a cancel at the end of the
	 * paid period: the service then has no next payment).
	 *
	 * @param array<string, mixed> $subscription
	 */
	public static function remaining_payments( array $subscription ): ?int {
		if ( in_array( $subscription['status'] ?? '', array( 'cancelled', 'completed' ), true ) ) {
			return 0;
		}
		$cancel_at = (string) ( $subscription['cancel_at'] ?? '' );
		$next      = (string) ( $subscription['next_payment_at'] ?? '' );
		if ( '' !== $cancel_at && ( '' === $next || self::date_text( $next ) >= self::date_text( $cancel_at ) ) ) {
			return 0;
		}
		$remaining = 0;
		foreach ( (array) ( $subscription['rules'] ?? array() ) as $rule ) {
			if ( ! isset( $rule['times'] ) ) {
				return null;
			}
			$remaining += max( 0, (int) $rule['times'] - (int) ( $rule['times_done'] ?? 0 ) );
		}
		return $remaining;
	}

	/**
	 * The next charge's amount as the store shows prices (`next_amount`, else the first rule's).
	 *
	 * @param array<string, mixed> $subscription
	 */
	public static function amount_html( array $subscription ): string {
		$rule   = (array) ( $subscription['rules'][0] ?? array() );
		$amount = (string) ( $subscription['next_amount'] ?? $rule['amount'] ?? '' );
		if ( '' === $amount ) {
			return '—';
		}
		return wc_price( $amount, array( 'currency' => (string) ( $rule['currency'] ?? 'EUR' ) ) );
	}

	/** "2026-12-24" from the service's date or date-time; "—" without one. */
	public static function date_text( mixed $value ): string {
		return is_string( $value ) && '' !== $value ? substr( $value, 0, 10 ) : '—';
	}

	/**
	 * The store's orders of a subscription: its renewal orders and the checkout order that started it,
	 * newest first.
	 *
	 * @return list<WC_Order>
	 */
	public static function orders_of( string $subscription_id ): array {
		$renewals = wc_get_orders(
			array(
				'limit'      => 50,
				'meta_key'   => self::ORDER_META, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_key -- one subscription's orders.
				'meta_value' => $subscription_id, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_value
			)
		);
		$checkout = wc_get_orders(
			array(
				'limit'        => 5,
				'meta_key'     => self::CHECKOUT_META, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_key
				'meta_value'   => $subscription_id, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_value
				'meta_compare' => 'LIKE',
			)
		);
		// LIKE finds sub_ab in "sub_abc": keep only orders whose list holds exactly this id.
		$checkout = array_filter(
			$checkout,
			static fn ( WC_Order $order ): bool => in_array( $subscription_id, array_map( 'trim', explode( ',', (string) $order->get_meta( self::CHECKOUT_META ) ) ), true )
		);
		$orders = array();
		foreach ( array_merge( $renewals, $checkout ) as $order ) {
			$orders[ $order->get_id() ] = $order;
		}
		krsort( $orders );
		return array_values( $orders );
	}

	/**
	 * Makes the call of an action. Cancel ends the subscription after the period already paid (its
	 * next payment date); pause takes the resume date (already checked by the caller) or none.
	 *
	 * @param array<string, mixed> $subscription as read from the service just before
	 */
	public static function perform( RPS_Api_Client $api, string $action, array $subscription, ?string $resume_at = null ): void {
		$path = '/api/v2/subscriptions/' . rawurlencode( (string) $subscription['id'] );
		switch ( $action ) {
			case self::CANCEL:
				$next = self::date_text( $subscription['next_payment_at'] ?? null );
				$api->delete_json( $path, '—' === $next ? array() : array( 'cancel_at' => $next ) );
				return;
			case self::PAUSE:
				$api->post( $path . '/pause', null === $resume_at ? array() : array( 'resume_at' => $resume_at ) );
				return;
			case self::RESUME:
				$api->post( $path . '/resume', array() );
				return;
			case self::SKIP:
				$api->post( $path . '/skip', array() );
				return;
		}
		throw new InvalidArgumentException( 'Unknown action ' . $action );
	}

	/** A buyer-readable sentence for an action that was done. */
	public static function done_message( string $action ): string {
		return match ( $action ) {
			self::CANCEL => __( 'The subscription is cancelled: it ends after the period already paid.', 'recurring-payments-bridge' ),
			self::PAUSE  => __( 'The subscription is paused.', 'recurring-payments-bridge' ),
			self::RESUME => __( 'The subscription is resumed.', 'recurring-payments-bridge' ),
			self::SKIP   => __( 'The next payment is skipped.', 'recurring-payments-bridge' ),
			default      => '',
		};
	}

	/**
	 * A subscription's status as shown to people, with the day it ends (cancelled at the end of a
	 * period) or resumes (paused until a date) while that is still to come: an ended subscription
	 * says only that it ended, not "ends" on a day that is past.
	 *
	 * @param array<string, mixed> $subscription
	 */
	public static function status_text( array $subscription ): string {
		$status = (string) ( $subscription['status'] ?? '' );
		$text   = self::status_label( $status );
		if ( in_array( $status, array( 'cancelled', 'completed' ), true ) ) {
			return $text;
		}
		if ( ! empty( $subscription['cancel_at'] ) ) {
			/* translators: %s: date */
			$text .= ' ' . sprintf( __( '(ends %s)', 'recurring-payments-bridge' ), self::date_text( $subscription['cancel_at'] ) );
		}
		if ( 'paused' === $status && ! empty( $subscription['resume_at'] ) ) {
			/* translators: %s: date */
			$text .= ' ' . sprintf( __( '(until %s)', 'recurring-payments-bridge' ), self::date_text( $subscription['resume_at'] ) );
		}
		return $text;
	}

	/** A status as shown to people. */
	public static function status_label( string $status ): string {
		return match ( $status ) {
			'active'    => __( 'Active', 'recurring-payments-bridge' ),
			'paused'    => __( 'Paused', 'recurring-payments-bridge' ),
			'draft'     => __( 'Waiting for a mandate', 'recurring-payments-bridge' ),
			'cancelled' => __( 'Cancelled', 'recurring-payments-bridge' ),
			'completed' => __( 'Completed', 'recurring-payments-bridge' ),
			default     => $status,
		};
	}
}
