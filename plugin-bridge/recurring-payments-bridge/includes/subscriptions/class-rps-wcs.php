<?php
defined( 'ABSPATH' ) || exit;

/**
 * WooCommerce Subscriptions (the paid extension), when it is active: our gateway is one of its
 * gateways with `gateway_scheduled_payments`, so the service alone bills. The extension keeps its
 * subscriptions (its My Account pages, its admin screens) and makes no renewal order itself; the
 * service makes one subscription per subscription of the extension and writes each charge as a
 * renewal order linked to it.
 *
 * - Checkout: which of the extension's subscriptions holds which line of the checkout order is
 *   written on the order (`_rps_wcs_lines`) before the order is paid; the service reads it.
 * - Renewals: a renewal order the service writes over REST names the extension's subscription
 *   (`_subscription_renewal`); here the relation is added through the extension's related-order
 *   store (which keeps its caches), and the subscription's next payment date follows the service's.
 * - Status, both ways: cancel, pending-cancel (cancel at the end of the paid period), on-hold and
 *   reactivation in the extension → the service's API; the service's cancel, pause and resume (its
 *   signed callback) → the extension. Each side asks the other only when the other is not in that
 *   state already, and a change applied from the service does not call the service back.
 */
final class RPS_Wcs {

	/** On a checkout order: `{"<line item id>": <extension subscription id>}` as JSON. */
	public const LINES_META = '_rps_wcs_lines';
	/** On the extension's subscription: the service's subscription (`sub_…`) that bills it. */
	public const SERVICE_ID_META = '_rps_service_subscription_id';
	/** On a renewal order the service writes: the extension's relation, and the service's next charge date (Y-m-d). */
	public const RENEWAL_META      = '_subscription_renewal';
	public const NEXT_PAYMENT_META = '_rps_next_payment_at';
	/** On a renewal order: the service's subscription (written by the service). */
	public const ORDER_SERVICE_ID_META = '_rps_subscription_id';
	/** On a checkout order: the service's subscriptions it started (written by the service). */
	public const ORDER_SERVICE_IDS_META = '_rps_subscription_ids';
	/** What our gateway supports besides products while the extension is active. */
	public const SUPPORTS = array(
		'subscriptions',
		'gateway_scheduled_payments',
		'subscription_cancellation',
		'subscription_suspension',
		'subscription_reactivation',
		'multiple_subscriptions',
	);
	/**
	 * Taking a subscription over from another gateway (the service's import): the extension accepts a
	 * new payment method over REST only from a gateway that supports this. Ours supports it only in
	 * the service's own REST requests, so no one hands a subscription to our gateway in wp-admin
	 * without the service holding a subscription that bills it.
	 */
	public const ADMIN_CHANGE = 'subscription_payment_method_change_admin';
	/** The extension's statuses whose change is told to the service (its gateway-specific hooks). */
	public const MIRRORED = array( 'cancelled', 'pending-cancel', 'on-hold', 'activated' );
	/** Action Scheduler's (else WP-Cron's) hook that sends a status change again: args subscription id, status, attempt. */
	public const RETRY_HOOK = 'rps_wcs_retry_status';
	/** Changes the service has not heard of yet: `{"<subscription id>": "<status>"}`, shown as an admin notice until sent. */
	public const UNSENT_OPTION = 'rps_wcs_unsent';
	/** The first retry after this many seconds, doubling each time up to RETRY_MAX_SECONDS: retried for as long as it fails. */
	public const RETRY_FIRST_SECONDS = 300;
	public const RETRY_MAX_SECONDS   = 21600;

	/** True while a change the service told of is applied here: the extension's hooks then ask the service nothing. */
	private static bool $applying = false;
	/** The WooCommerce REST key this request was authenticated with (0: none, or not a REST request). */
	private static int $rest_key_id = 0;

	public static function active(): bool {
		return class_exists( 'WC_Subscriptions', false ) && function_exists( 'wcs_get_subscription' );
	}

	public static function register(): void {
		if ( ! self::active() ) {
			return;
		}
		add_action( 'woocommerce_checkout_subscription_created', array( self::class, 'record_lines' ), 10, 2 );
		// WooCommerce names the request's REST key in this filter (7.7+), before the request is handled.
		add_filter( 'woocommerce_disable_rest_api_access_log', array( self::class, 'note_rest_key' ), 10, 2 );
		add_action( 'woocommerce_rest_insert_shop_order_object', array( self::class, 'link_renewal' ), 10, 3 );
		foreach ( self::MIRRORED as $status ) {
			add_action(
				'woocommerce_subscription_' . $status . '_' . RPS_Gateway::ID,
				static function ( $subscription ) use ( $status ): void {
					if ( $subscription instanceof WC_Order ) {
						self::status_changed( $subscription, $status, RPS_Api_Client::from_settings() );
					}
				}
			);
		}
		add_action( self::RETRY_HOOK, array( self::class, 'retry_status' ), 10, 3 );
		add_action(
			'rps_subscription_event',
			static function ( $event, $subscription ): void {
				if ( is_array( $event ) && is_array( $subscription ) ) {
					self::apply_event( $event, $subscription );
				}
			},
			10,
			2
		);
	}

	/**
	 * `woocommerce_disable_rest_api_access_log`: keeps the REST key the request was authenticated with;
	 * the filter's value is passed on unchanged.
	 *
	 * @param mixed $skip   whether WooCommerce records the key's last access
	 * @param mixed $key_id the request's REST key
	 * @return mixed
	 */
	public static function note_rest_key( $skip, $key_id = 0 ) {
		self::$rest_key_id = is_numeric( $key_id ) ? (int) $key_id : 0;
		return $skip;
	}

	/**
	 * Whether this is one of the service's own REST requests: authenticated with the REST key this
	 * plugin made for the service when the store was connected ("Connect this store").
	 */
	public static function request_from_service(): bool {
		$service_key = (int) RPS_Settings::get( 'rest_key_id' );
		return $service_key > 0 && self::$rest_key_id === $service_key;
	}

	/**
	 * The extension made one of its subscriptions at checkout: the order's lines it holds are named on
	 * the order (same product and variation), so the service makes one subscription of them.
	 *
	 * @param WC_Order $subscription the extension's subscription
	 * @param WC_Order $order        the checkout order
	 */
	public static function record_lines( $subscription, $order ): void {
		if ( ! $subscription instanceof WC_Order || ! $order instanceof WC_Order || RPS_Gateway::ID !== $order->get_payment_method() ) {
			return;
		}
		$held = array();
		foreach ( $subscription->get_items() as $item ) {
			if ( $item instanceof WC_Order_Item_Product ) {
				$held[ $item->get_product_id() . ':' . $item->get_variation_id() ] = true;
			}
		}
		$current = json_decode( (string) $order->get_meta( self::LINES_META ), true );
		$current = is_array( $current ) ? $current : array();
		$lines   = array();
		foreach ( $order->get_items() as $item_id => $item ) {
			if ( ! $item instanceof WC_Order_Item_Product ) {
				continue;
			}
			$id = (int) ( $item->get_id() ?: $item_id );
			if ( isset( $held[ $item->get_product_id() . ':' . $item->get_variation_id() ] ) ) {
				$lines[ (string) $id ] = $subscription->get_id();
			} elseif ( isset( $current[ (string) $id ] ) ) {
				$lines[ (string) $id ] = (int) $current[ (string) $id ]; // Another subscription of this checkout.
			}
		}
		if ( array() === $lines ) {
			return;
		}
		$order->update_meta_data( self::LINES_META, (string) wp_json_encode( (object) $lines ) );
		$order->save();
	}

	/**
	 * A renewal order the service wrote over REST: linked as the extension's renewal of its subscription
	 * (through the extension's store, so its caches know), with the service's subscription kept on the
	 * extension's one and the extension's next payment date moved to the service's.
	 *
	 * @param WC_Order $order
	 * @param mixed    $request
	 * @param bool     $creating
	 */
	public static function link_renewal( $order, $request = null, $creating = true ): void {
		if ( ! $creating || ! $order instanceof WC_Order ) {
			return;
		}
		$subscription_id = (int) $order->get_meta( self::RENEWAL_META );
		$service_id      = (string) $order->get_meta( self::ORDER_SERVICE_ID_META );
		if ( $subscription_id <= 0 || '' === $service_id ) {
			return; // Not one of the service's renewals of the extension's subscription.
		}
		$subscription = wcs_get_subscription( $subscription_id );
		if ( ! $subscription instanceof WC_Order ) {
			RPS_Callback::log( 'warning', sprintf( 'Renewal order %d names subscription %d, which WooCommerce Subscriptions does not have', $order->get_id(), $subscription_id ) );
			return;
		}
		if ( class_exists( 'WCS_Related_Order_Store' ) ) {
			WCS_Related_Order_Store::instance()->add_relation( $order, $subscription, 'renewal' );
		}
		if ( '' === (string) $subscription->get_meta( self::SERVICE_ID_META ) ) {
			$subscription->update_meta_data( self::SERVICE_ID_META, $service_id );
			$subscription->save();
		}
		/* translators: %s: the renewal order's number */
		$subscription->add_order_note( sprintf( __( 'Renewal order %s was made by the recurring payments service, which charges this subscription.', 'recurring-payments-bridge' ), $order->get_order_number() ) );
		self::follow_next_payment( $subscription, (string) $order->get_meta( self::NEXT_PAYMENT_META ) );
	}

	/**
	 * The extension's next payment date becomes the service's next charge date (the site's midnight of
	 * that day), so its screens and e-mails say when the service charges. A date the extension refuses
	 * (not in the future) is left as it is.
	 */
	public static function follow_next_payment( WC_Order $subscription, string $date ): void {
		if ( ! preg_match( '/^\d{4}-\d{2}-\d{2}$/', $date ) || ! method_exists( $subscription, 'update_dates' ) ) {
			return;
		}
		try {
			$local = new DateTimeImmutable( $date . ' 00:00:00', wp_timezone() );
			$gmt   = $local->setTimezone( new DateTimeZone( 'UTC' ) )->format( 'Y-m-d H:i:s' );
			if ( $subscription->get_date( 'next_payment' ) !== $gmt && $local->getTimestamp() > time() ) {
				$subscription->update_dates( array( 'next_payment' => $gmt ) );
			}
		} catch ( Exception $error ) {
			RPS_Callback::log( 'warning', sprintf( 'The next payment date of subscription %d was not moved to %s: %s', $subscription->get_id(), $date, $error->getMessage() ) );
		}
	}

	/**
	 * The extension changed one of its subscriptions paid with our gateway: the service is told, unless
	 * the change came from the service (a callback being applied) or from a renewal order's outcome
	 * (the service's own charge: it handles a failure with its follow-ups), or the service's
	 * subscription is in that state already.
	 *
	 * A change the service could not be told of (no answer, an error) is never dropped: it leaves an
	 * order note and an admin notice, and is sent again later (retry_status) until the service has it.
	 *
	 * @param string $status  one of MIRRORED
	 * @param int    $attempt how many times it was tried before (0: the change itself)
	 * @return string what was done (for the log and the tests)
	 */
	public static function status_changed( WC_Order $subscription, string $status, RPS_Api_Client $api, int $attempt = 0 ): string {
		if ( self::$applying ) {
			return 'applying the service\'s change';
		}
		if ( doing_action( 'woocommerce_order_status_changed' ) || doing_action( 'woocommerce_payment_complete' ) ) {
			return 'a renewal order\'s outcome';
		}
		try {
			$service_id = self::service_id_of( $subscription, $api );
			if ( '' === $service_id ) {
				return 'no subscription at the service';
			}
			$path    = '/api/v2/subscriptions/' . rawurlencode( $service_id );
			$current = $api->get( $path );
			$state   = (string) ( $current['status'] ?? '' );
			$live    = in_array( $state, array( 'active', 'paused' ), true );
			$cancels = (string) ( $current['cancel_at'] ?? '' );
			switch ( $status ) {
				case 'cancelled':
					// A cancellation dated at or before the next charge stands already (the extension's
					// pending-cancel ending): nothing more is charged, and the service ends it on its date.
					$next = substr( (string) ( $current['next_payment_at'] ?? '' ), 0, 10 );
					if ( ! $live || ( '' !== $cancels && ( '' === $next || $cancels <= $next || $cancels <= wp_date( 'Y-m-d' ) ) ) ) {
						return 'already cancelled';
					}
					$api->delete_json( $path, array() );
					$done = __( 'The recurring payments service was told: cancelled.', 'recurring-payments-bridge' );
					break;
				case 'pending-cancel':
					if ( ! $live || '' !== $cancels ) {
						return 'already cancelled';
					}
					$end = (string) ( $current['next_payment_at'] ?? '' );
					$api->delete_json( $path, '' === $end ? array() : array( 'cancel_at' => substr( $end, 0, 10 ) ) );
					$done = __( 'The recurring payments service was told: cancel at the end of the paid period.', 'recurring-payments-bridge' );
					break;
				case 'on-hold':
					if ( 'active' !== $state ) {
						return 'not active';
					}
					$api->post( $path . '/pause', array() );
					$done = __( 'The recurring payments service was told: paused.', 'recurring-payments-bridge' );
					break;
				case 'activated':
					if ( 'paused' !== $state ) {
						return 'not paused';
					}
					$api->post( $path . '/resume', array() );
					$done = __( 'The recurring payments service was told: resumed.', 'recurring-payments-bridge' );
					break;
				default:
					return 'not mirrored';
			}
		} catch ( RPS_Api_Error $error ) {
			RPS_Callback::log( 'error', sprintf( 'Subscription %d is %s in WooCommerce Subscriptions; the service could not be told: %s', $subscription->get_id(), $status, $error->detail() ) );
			$when = self::schedule_retry( $subscription->get_id(), $status, $attempt + 1 );
			if ( 0 === $attempt ) {
				/* translators: 1: the service's error, 2: when it is tried again */
				$subscription->add_order_note( sprintf( __( 'The recurring payments service could not be told of this change yet: %1$s. It is sent again from %2$s until the service has it; the service may charge until then.', 'recurring-payments-bridge' ), $error->getMessage(), wp_date( 'Y-m-d H:i', $when ) ) );
			}
			self::remember_unsent( $subscription->get_id(), $status );
			return 'failed, retried';
		}
		self::forget_unsent( $subscription->get_id() );
		$subscription->add_order_note( $done );
		return 'told';
	}

	/**
	 * Sends the change again (RETRY_HOOK), unless the subscription changed since: its newer status
	 * was sent on its own, and the older one would undo it.
	 *
	 * @param mixed $subscription_id
	 * @param mixed $status
	 * @param mixed $attempt
	 * @return string what was done
	 */
	public static function retry_status( $subscription_id, $status = '', $attempt = 1, ?RPS_Api_Client $api = null ): string {
		$subscription = wcs_get_subscription( (int) $subscription_id );
		$status       = (string) $status;
		if ( ! $subscription instanceof WC_Order || ! in_array( $status, self::MIRRORED, true ) ) {
			self::forget_unsent( (int) $subscription_id );
			return 'gone';
		}
		$now = 'activated' === $status ? 'active' : $status;
		if ( ! $subscription->has_status( $now ) ) {
			return 'superseded';
		}
		return self::status_changed( $subscription, $status, $api ?? RPS_Api_Client::from_settings(), max( 1, (int) $attempt ) );
	}

	/** Schedules the next send of a change: Action Scheduler where WooCommerce has it, else WP-Cron. Answers when. */
	private static function schedule_retry( int $subscription_id, string $status, int $attempt ): int {
		$delay = (int) min( self::RETRY_MAX_SECONDS, self::RETRY_FIRST_SECONDS * ( 2 ** min( 10, $attempt - 1 ) ) );
		$when  = time() + $delay;
		$args  = array( $subscription_id, $status, $attempt );
		if ( function_exists( 'as_schedule_single_action' ) ) {
			as_schedule_single_action( $when, self::RETRY_HOOK, $args, 'recurring-payments-bridge' );
		} else {
			wp_schedule_single_event( $when, self::RETRY_HOOK, $args );
		}
		return $when;
	}

	private static function remember_unsent( int $subscription_id, string $status ): void {
		$unsent = get_option( self::UNSENT_OPTION, array() );
		$unsent = is_array( $unsent ) ? $unsent : array();
		$unsent[ (string) $subscription_id ] = $status;
		update_option( self::UNSENT_OPTION, $unsent, false );
	}

	private static function forget_unsent( int $subscription_id ): void {
		$unsent = get_option( self::UNSENT_OPTION, array() );
		if ( is_array( $unsent ) && isset( $unsent[ (string) $subscription_id ] ) ) {
			unset( $unsent[ (string) $subscription_id ] );
			update_option( self::UNSENT_OPTION, $unsent, false );
		}
	}

	/** The admin notice of changes the service has not heard of yet (RPS_Admin_Page::notices_html); '' when none. */
	public static function unsent_notice_html(): string {
		$unsent = get_option( self::UNSENT_OPTION, array() );
		if ( ! is_array( $unsent ) || array() === $unsent ) {
			return '';
		}
		$ids = implode( ', ', array_map( static fn ( $id ): string => '#' . (int) $id, array_keys( $unsent ) ) );
		/* translators: %s: the subscriptions' numbers */
		$text = sprintf( __( 'The recurring payments service has not yet heard of a status change of subscription %s (cancelled, suspended or reactivated here): it is sent again automatically until it has. Until then the service may charge it.', 'recurring-payments-bridge' ), $ids );
		return '<div class="notice notice-error"><p>' . esc_html( $text ) . '</p></div>';
	}

	/**
	 * A verified change from the service (its callback) on the extension's subscription it bills:
	 * cancelled (pending-cancel while its date is to come), paused (on-hold), resumed (active), and
	 * after a skip the next payment date. A subscription in that state already is left alone.
	 *
	 * @param array<string, mixed> $event        the callback's body
	 * @param array<string, mixed> $subscription the service's subscription
	 * @return string what was done
	 */
	public static function apply_event( array $event, array $subscription ): string {
		$shop_id = (int) ( $subscription['shop_subscription_id'] ?? 0 );
		if ( $shop_id <= 0 || ! function_exists( 'wcs_get_subscription' ) ) {
			return 'not an extension subscription';
		}
		$wcs = wcs_get_subscription( $shop_id );
		if ( ! $wcs instanceof WC_Order || RPS_Gateway::ID !== $wcs->get_payment_method() ) {
			return 'not an extension subscription';
		}
		if ( '' === (string) $wcs->get_meta( self::SERVICE_ID_META ) && is_string( $subscription['id'] ?? null ) ) {
			$wcs->update_meta_data( self::SERVICE_ID_META, $subscription['id'] );
			$wcs->save();
		}
		$kind = substr( (string) ( $event['event'] ?? '' ), strlen( 'subscription.' ) );
		$to   = null;
		if ( 'cancelled' === $kind ) {
			$on = (string) ( $event['cancel_at'] ?? $subscription['cancel_at'] ?? '' );
			$to = 'cancelled' === ( $subscription['status'] ?? '' ) || '' === $on || $on <= wp_date( 'Y-m-d' ) ? 'cancelled' : 'pending-cancel';
			if ( $wcs->has_status( array( 'cancelled', 'expired' ) ) || ( 'pending-cancel' === $to && $wcs->has_status( 'pending-cancel' ) ) ) {
				return 'already ' . $wcs->get_status();
			}
		} elseif ( 'paused' === $kind ) {
			$to = $wcs->has_status( 'active' ) ? 'on-hold' : null;
		} elseif ( 'resumed' === $kind ) {
			$to = $wcs->has_status( 'on-hold' ) ? 'active' : null;
		}
		if ( in_array( $kind, array( 'resumed', 'skipped' ), true ) ) {
			self::follow_next_payment( $wcs, substr( (string) ( $subscription['next_payment_at'] ?? '' ), 0, 10 ) );
		}
		if ( null === $to ) {
			return 'nothing to change';
		}
		self::$applying = true;
		try {
			$wcs->update_status( $to, __( 'Changed by the recurring payments service.', 'recurring-payments-bridge' ) );
		} catch ( Exception $error ) {
			RPS_Callback::log( 'error', sprintf( 'Subscription %d could not be made %s as the service says: %s', $wcs->get_id(), $to, $error->getMessage() ) );
			return 'failed';
		} finally {
			self::$applying = false;
		}
		return $to;
	}

	/**
	 * The service's subscription billing one of the extension's: kept on it (the service's import writes
	 * it when it hands the subscription to our gateway; its first renewal order writes it too), else found
	 * among those its checkout order started, else asked of the service by the store's id
	 * (`?shop_subscription_id=`: a subscription taken over without a parent order); kept once found.
	 */
	public static function service_id_of( WC_Order $subscription, RPS_Api_Client $api ): string {
		$known = (string) $subscription->get_meta( self::SERVICE_ID_META );
		if ( '' !== $known ) {
			return $known;
		}
		$parent = method_exists( $subscription, 'get_parent_id' ) ? wc_get_order( $subscription->get_parent_id() ) : false;
		$ids    = $parent instanceof WC_Order ? array_filter( explode( ',', (string) $parent->get_meta( self::ORDER_SERVICE_IDS_META ) ) ) : array();
		foreach ( $ids as $candidate ) {
			if ( ! preg_match( '/^sub_[A-Za-z0-9]{1,64}$/', $candidate ) ) {
				continue;
			}
			$found = $api->get( '/api/v2/subscriptions/' . rawurlencode( $candidate ) );
			if ( (int) ( $found['shop_subscription_id'] ?? 0 ) === $subscription->get_id() ) {
				return self::keep_service_id( $subscription, $candidate );
			}
		}
		$listed = $api->get( '/api/v2/subscriptions?shop_subscription_id=' . $subscription->get_id() );
		$found  = '';
		foreach ( is_array( $listed['data'] ?? null ) ? $listed['data'] : array() as $candidate ) {
			$id = is_array( $candidate ) ? (string) ( $candidate['id'] ?? '' ) : '';
			if ( (int) ( $candidate['shop_subscription_id'] ?? 0 ) !== $subscription->get_id() || ! preg_match( '/^sub_[A-Za-z0-9]{1,64}$/', $id ) ) {
				continue;
			}
			// One that still bills it wins over an ended one (an import run again after a cancel, say).
			if ( '' === $found || in_array( (string) ( $candidate['status'] ?? '' ), array( 'active', 'paused' ), true ) ) {
				$found = $id;
			}
		}
		return '' === $found ? '' : self::keep_service_id( $subscription, $found );
	}

	private static function keep_service_id( WC_Order $subscription, string $service_id ): string {
		$subscription->update_meta_data( self::SERVICE_ID_META, $service_id );
		$subscription->save();
		return $service_id;
	}
}
