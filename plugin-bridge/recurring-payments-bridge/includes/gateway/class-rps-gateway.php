<?php
defined( 'ABSPATH' ) || exit;

/**
 * The payment method at checkout. It makes a Payment in the service for the order (the service
 * checks it against the store's order), and sends the buyer to the provider's checkout. Our record
 * comes first: the attempt number is saved on the order before the service is asked, and the
 * Idempotency-Key is derived from it, so a retry after a lost answer gets the same payment.
 */
class RPS_Gateway extends WC_Payment_Gateway {

	public const ID = 'rps';
	/** Order meta: the attempt whose payment is being made (the key's last part). */
	private const ATTEMPT_META = '_rps_attempt';
	/** Order meta: the payment of the current attempt and its checkout address. */
	private const PAYMENT_META  = RPS_Callback::CURRENT_PAYMENT_META;
	private const CHECKOUT_META = '_rps_checkout_url';
	/** Payment statuses after which the buyer may try again with a new payment. */
	private const RETRYABLE = array( 'failed', 'expired', 'canceled' );
	/** Order meta: how many of the order's refunds failed at the provider (each next attempt gets a new reference). */
	private const REFUND_ATTEMPT_META = '_rps_refund_failures';

	private ?RPS_Api_Client $api;

	public function __construct( ?RPS_Api_Client $api = null ) {
		$this->id                 = self::ID;
		$this->method_title       = __( 'Recurring payments', 'recurring-payments-bridge' );
		$this->method_description = __( 'Payments and subscriptions through the recurring payments service (Mollie). Connect the service under WooCommerce → Recurring payments.', 'recurring-payments-bridge' );
		$this->has_fields         = true;
		$this->supports           = self::supports_with( RPS_Wcs::active() );
		$this->api                = $api;
		$this->init_form_fields();
		$this->init_settings();
		$this->title       = (string) $this->get_option( 'title' );
		$this->description = (string) $this->get_option( 'description' );
		add_action( 'woocommerce_update_options_payment_gateways_' . $this->id, array( $this, 'process_admin_options' ) );
	}

	/**
	 * Products and refunds always (WooCommerce's refund button calls process_refund); with WooCommerce Subscriptions active, its subscriptions too, billed by the
	 * service (`gateway_scheduled_payments`: the extension makes no renewal order and charges nothing).
	 * No amount or date changes: the service's schedule is the one that counts.
	 *
	 * @return list<string>
	 */
	public static function supports_with( bool $wcs_active ): array {
		return $wcs_active ? array_merge( array( 'products', 'refunds' ), RPS_Wcs::SUPPORTS ) : array( 'products', 'refunds' );
	}

	/**
	 * Handing a subscription to this gateway (`subscription_payment_method_change_admin`) only in the
	 * service's own REST requests, while it takes the subscription over (RPS_Wcs::ADMIN_CHANGE).
	 *
	 * @param string $feature
	 */
	public function supports( $feature ): bool {
		if ( RPS_Wcs::ADMIN_CHANGE === $feature ) {
			return RPS_Wcs::active() && RPS_Wcs::request_from_service();
		}
		return parent::supports( $feature );
	}

	public function init_form_fields(): void {
		$this->form_fields = array(
			'enabled'     => array(
				'title'   => __( 'Enable', 'recurring-payments-bridge' ),
				'type'    => 'checkbox',
				'label'   => __( 'Offer payment through the recurring payments service', 'recurring-payments-bridge' ),
				'default' => 'no',
			),
			'title'       => array(
				'title'   => __( 'Title', 'recurring-payments-bridge' ),
				'type'    => 'text',
				'default' => __( 'Pay online', 'recurring-payments-bridge' ),
			),
			'description' => array(
				'title'   => __( 'Description', 'recurring-payments-bridge' ),
				'type'    => 'textarea',
				'default' => __( 'Pay with iDEAL, card or another method of your choice.', 'recurring-payments-bridge' ),
			),
		);
	}

	public function is_available(): bool {
		return parent::is_available() && RPS_Settings::is_configured() && array() !== self::offered_methods( $this->api(), self::for_mandate() );
	}

	/**
	 * A cart or an order with a subscription is paid with a method that can create a mandate (only those
	 * are offered): the checkout's cart, or the order of the order-pay page (its cart is empty).
	 */
	private static function for_mandate( ?WC_Order $order = null ): bool {
		if ( ! class_exists( RPS_Cart_Gateways::class ) ) {
			return false;
		}
		$order ??= RPS_Cart_Gateways::order_being_paid();
		return RPS_Cart_Gateways::cart_needs_mandate() || ( null !== $order && RPS_Cart_Gateways::order_needs_mandate( $order ) );
	}

	/** The methods picker under the description. */
	public function payment_fields(): void {
		if ( '' !== $this->description ) {
			echo wp_kses_post( wpautop( wptexturize( $this->description ) ) );
		}
		$methods = self::offered_methods( $this->api(), self::for_mandate() );
		echo '<fieldset id="rps-methods"><legend class="screen-reader-text">' . esc_html__( 'Payment method', 'recurring-payments-bridge' ) . '</legend>';
		foreach ( $methods as $index => $method ) {
			printf(
				'<label><input type="radio" name="rps_method" value="%1$s" %2$s /> %3$s</label><br />',
				esc_attr( $method ),
				checked( 0, $index, false ),
				esc_html( self::method_label( $method ) )
			);
		}
		echo '</fieldset>';
	}

	/**
	 * The spec's methods the account's provider offers (`GET /api/v2/methods`), kept an hour. Asked
	 * while the checkout renders, so with the quick client (3 s at most); a failure is kept a minute,
	 * and meanwhile the list is empty: the gateway hides itself and the other methods stay usable.
	 * With $for_mandate only those that can create a mandate (`?sequence_type=first`), cached apart.
	 *
	 * @return list<string>
	 */
	public static function offered_methods( RPS_Api_Client $api, bool $for_mandate = false ): array {
		$transient = $for_mandate ? RPS_Settings::FIRST_METHODS_TRANSIENT : RPS_Settings::METHODS_TRANSIENT;
		$failed    = $for_mandate ? RPS_Settings::FIRST_METHODS_FAILED_TRANSIENT : RPS_Settings::METHODS_FAILED_TRANSIENT;
		$cached    = get_transient( $transient );
		if ( is_array( $cached ) ) {
			return $cached;
		}
		if ( false !== get_transient( $failed ) ) {
			return array();
		}
		try {
			$answer  = $api->quick()->get( $for_mandate ? '/api/v2/methods?sequence_type=first' : '/api/v2/methods' );
			$methods = array_values( array_filter( array_map( static fn ( $method ) => is_array( $method ) ? ( $method['id'] ?? null ) : null, $answer['data'] ?? array() ), 'is_string' ) );
		} catch ( RPS_Api_Error $error ) {
			RPS_Callback::log( 'error', 'The payment methods could not be read: ' . $error->detail() );
			set_transient( $failed, time(), RPS_Api_Client::UNREACHABLE_SECONDS );
			return array();
		}
		set_transient( $transient, $methods, HOUR_IN_SECONDS );
		return $methods;
	}

	public static function method_label( string $method ): string {
		$labels = array(
			'ideal'        => 'iDEAL',
			'creditcard'   => __( 'Credit card', 'recurring-payments-bridge' ),
			'bancontact'   => 'Bancontact',
			'sofort'       => 'SOFORT',
			'eps'          => 'EPS',
			'giropay'      => 'giropay',
			'belfius'      => 'Belfius',
			'kbc'          => 'KBC/CBC',
			'banktransfer' => __( 'Bank transfer', 'recurring-payments-bridge' ),
		);
		return $labels[ $method ] ?? $method;
	}

	/**
	 * @param int $order_id
	 * @return array{result: string, redirect?: string}
	 */
	public function process_payment( $order_id ): array {
		$order = wc_get_order( $order_id );
		if ( ! $order instanceof WC_Order ) {
			return $this->refuse( __( 'Your order could not be found. Please try again.', 'recurring-payments-bridge' ), sprintf( 'Order %d not found at payment', (int) $order_id ) );
		}
		try {
			$method = $this->chosen_method( $order );
			$reused = $this->open_payment( $order, $method );
			if ( null !== $reused ) {
				return array( 'result' => 'success', 'redirect' => $reused );
			}
			$payment = $this->create_payment( $order, $method );
		} catch ( RPS_Api_Error $error ) {
			$message = $error->is_temporary()
				? __( 'The payment could not be started just now. Please try again in a moment.', 'recurring-payments-bridge' )
				: __( 'The payment could not be started. Please check your details or choose another payment method.', 'recurring-payments-bridge' );
			return $this->refuse( $message, sprintf( 'Payment for order %d could not be made: %s', $order->get_id(), $error->detail() ) );
		} catch ( InvalidArgumentException $error ) {
			return $this->refuse( __( 'This order cannot be paid online.', 'recurring-payments-bridge' ), sprintf( 'Order %d has a total the service cannot take: %s', $order->get_id(), $error->getMessage() ) );
		}
		$checkout_url = (string) ( $payment['provider_checkout_url'] ?? '' );
		if ( '' === $checkout_url ) {
			return $this->refuse( __( 'The payment could not be started. Please choose another payment method.', 'recurring-payments-bridge' ), sprintf( 'Payment %s for order %d has no checkout address', (string) ( $payment['id'] ?? '' ), $order->get_id() ) );
		}
		$order->update_meta_data( self::PAYMENT_META, (string) $payment['id'] );
		$order->update_meta_data( self::CHECKOUT_META, $checkout_url );
		$order->update_meta_data( RPS_Callback::PAYMENT_IDS_META, array_values( array_unique( array_merge( RPS_Callback::payment_ids( $order ), array( (string) $payment['id'] ) ) ) ) );
		$order->save();
		return array( 'result' => 'success', 'redirect' => $checkout_url );
	}

	/**
	 * WooCommerce's refund ("Refund € … via Recurring payments", or REST `api_refund`): refunds part or all of
	 * the order's paid payment through the service, which never lets more go back than was paid. WooCommerce has
	 * written its refund record before it asks; the Idempotency-Key and the refund's reference are derived from the
	 * order and the number of its refunds, so a retry after a lost answer is the same refund in the service
	 * (WooCommerce deletes a refund whose call failed, so the count is the same again). Before asking, the plugin
	 * looks the reference up among the payment's refunds: a refund that went out after all is recorded, not made
	 * again — also past the service's 24-hour Idempotency-Key window, where the service's unique reference is what
	 * answers the first refund.
	 *
	 * @param int        $order_id
	 * @param float|null $amount
	 * @param string     $reason
	 * @return bool|WP_Error
	 */
	public function process_refund( $order_id, $amount = null, $reason = '' ) {
		$order = wc_get_order( $order_id );
		if ( ! $order instanceof WC_Order ) {
			return new WP_Error( 'rps_refund_failed', __( 'The order could not be found.', 'recurring-payments-bridge' ) );
		}
		$payment_id = (string) $order->get_meta( self::PAYMENT_META );
		if ( self::ID !== $order->get_payment_method() || '' === $payment_id ) {
			return new WP_Error( 'rps_refund_failed', __( 'This order was not paid through the recurring payments service, so it cannot be refunded here.', 'recurring-payments-bridge' ) );
		}
		$cents = (int) round( (float) $amount * 100 );
		if ( null === $amount || $cents <= 0 ) {
			return new WP_Error( 'rps_refund_failed', __( 'Enter an amount greater than zero to refund.', 'recurring-payments-bridge' ) );
		}
		$body        = array( 'amount' => $cents / 100 );
		$description = trim( (string) $reason );
		if ( '' !== $description ) {
			$body['description'] = function_exists( 'mb_substr' ) ? mb_substr( $description, 0, 191 ) : substr( $description, 0, 191 );
		}
		// One claim with the service's refund.* callback: while this asks, the callback waits (and is retried); while
		// the callback records refunds, this one is refused, so neither records the other's refund a second time.
		// Through wc_create_refund it was taken before WooCommerce saved its record (RPS_Refunds::claim_before_record).
		$refused = RPS_Refunds::claim_for_button( $order );
		if ( null !== $refused ) {
			return new WP_Error( 'rps_refund_failed', $refused );
		}
		$result = null;
		try {
			// Read under the claim as stored now, not as a cache of this request may keep it: a callback may have
			// recorded a refund after WooCommerce loaded the order and before this request held the claim.
			$fresh    = RPS_Callback::fresh_order( $order->get_id() );
			$order    = $fresh instanceof WC_Order ? $fresh : $order;
			$recorded = RPS_Refunds::recently_recorded( $order, $cents );
			if ( null !== $recorded ) {
				// The lost refund's retry from a screen loaded before the service's callback recorded it.
				/* translators: %s: the service's refund id */
				$result = new WP_Error( 'rps_refund_failed', sprintf( __( 'A refund of this amount was just recorded on the order (refund %s): reload the order. Refund again after 15 minutes if you mean a second refund.', 'recurring-payments-bridge' ), $recorded ) );
				return $result;
			}
			$key = sprintf( 'wc-%s-refund-%d-%d-%d', self::site_key(), $order->get_id(), count( $order->get_refunds() ), $cents );
			// A refund that failed at the provider gave its reference a final answer: the next attempt needs its own.
			$failed_before = (int) $order->get_meta( self::REFUND_ATTEMPT_META );
			if ( $failed_before > 0 ) {
				$key .= '-' . $failed_before;
			}
			$body['reference'] = $key;
			$result            = $this->ask_for_refund( $order, $payment_id, $body, $key, $cents, $failed_before );
			return $result;
		} finally {
			if ( true === $result ) {
				RPS_Refunds::release( $order );
			} else {
				// WooCommerce deletes its record of a failed refund after this returns: until then a callback would count it.
				RPS_Refunds::release_after_cleanup( $order );
			}
		}
	}

	/**
	 * @param array<string, mixed> $body
	 * @return bool|WP_Error
	 */
	private function ask_for_refund( WC_Order $order, string $payment_id, array $body, string $key, int $cents, int $failed_before ) {
		$earlier = $this->refund_made_before( $payment_id, $key );
		if ( null !== $earlier ) {
			if ( in_array( (string) ( $earlier['id'] ?? '' ), RPS_Refunds::remembered( $order ), true ) ) {
				// The service's callback recorded it already (after the lost answer): this new record would count it twice.
				/* translators: %s: the service's refund id */
				return new WP_Error( 'rps_refund_failed', sprintf( __( 'This refund was made already and is recorded on the order (refund %s).', 'recurring-payments-bridge' ), (string) $earlier['id'] ) );
			}
			return $this->refunded( $order, $cents, $earlier );
		}
		try {
			$refund = $this->api()->post( '/api/v2/payments/' . rawurlencode( $payment_id ) . '/refunds', $body, $key );
		} catch ( RPS_Api_Error $error ) {
			RPS_Callback::log( 'error', sprintf( 'Refund of order %d could not be made: %s', $order->get_id(), $error->detail() ) );
			if ( $error->is_temporary() ) {
				return new WP_Error( 'rps_refund_failed', __( 'The service did not confirm the refund just now. Try again in a moment: it will not be refunded twice.', 'recurring-payments-bridge' ) );
			}
			$why = $error->getMessage();
			foreach ( $error->fields as $messages ) {
				$why = implode( ' ', $messages );
				break;
			}
			/* translators: %s: why the service refused the refund, e.g. "The amount is more than can still be refunded (7.50 EUR)." */
			return new WP_Error( 'rps_refund_failed', sprintf( __( 'The refund was refused: %s', 'recurring-payments-bridge' ), $why ) );
		}
		if ( in_array( (string) ( $refund['status'] ?? '' ), array( 'failed', 'canceled' ), true ) ) {
			$order->update_meta_data( self::REFUND_ATTEMPT_META, $failed_before + 1 );
			$order->save();
			/* translators: %s: the provider's reason, or the refund's status */
			return new WP_Error( 'rps_refund_failed', sprintf( __( 'The refund failed at the payment provider: %s', 'recurring-payments-bridge' ), (string) ( $refund['failure_reason'] ?? $refund['status'] ) ) );
		}
		return $this->refunded( $order, $cents, $refund );
	}

	/**
	 * The service's refund of the payment made before under this reference (an attempt whose answer was lost), if
	 * it reached the provider and did not fail; null otherwise. A look-up that fails leaves it to the service, which
	 * answers the first refund for a reference it knows.
	 *
	 * @return array<string, mixed>|null
	 */
	private function refund_made_before( string $payment_id, string $reference ): ?array {
		try {
			$refunds = $this->api()->get( '/api/v2/payments/' . rawurlencode( $payment_id ) . '/refunds' );
		} catch ( RPS_Api_Error $error ) {
			RPS_Callback::log( 'warning', sprintf( 'Refunds of payment %s could not be read before a refund: %s', $payment_id, $error->detail() ) );
			return null;
		}
		foreach ( (array) ( $refunds['data'] ?? array() ) as $refund ) {
			if ( is_array( $refund ) && ( $refund['reference'] ?? null ) === $reference && in_array( (string) ( $refund['status'] ?? '' ), RPS_Refunds::UNDER_WAY, true ) ) {
				return $refund;
			}
		}
		return null;
	}

	/**
	 * The refund is the service's: noted on the order, its id remembered (the service's `refund.*` callback then
	 * finds it recorded already).
	 *
	 * @param array<string, mixed> $refund as the service answered it
	 */
	private function refunded( WC_Order $order, int $cents, array $refund ): bool {
		RPS_Refunds::remember( $order, (string) ( $refund['id'] ?? '' ) );
		$order->add_order_note(
			sprintf(
				/* translators: 1: amount, 2: currency, 3: the service's refund id */
				__( 'Refunded %1$s %2$s through the recurring payments service (refund %3$s).', 'recurring-payments-bridge' ),
				number_format( $cents / 100, 2, '.', '' ),
				$order->get_currency(),
				(string) ( $refund['id'] ?? '' )
			)
		);
		return true;
	}

	/**
	 * Where to send the buyer when the order already has a payment that is not finished without money
	 * (a second click, a back button): null when a new payment is to be made.
	 */
	private function open_payment( WC_Order $order, string $method ): ?string {
		$payment_id = (string) $order->get_meta( self::PAYMENT_META );
		$url        = (string) $order->get_meta( self::CHECKOUT_META );
		if ( '' === $payment_id || '' === $url ) {
			return null;
		}
		$payment = $this->api()->get( '/api/v2/payments/' . rawurlencode( $payment_id ) );
		$status  = (string) ( $payment['status'] ?? '' );
		if ( in_array( $status, self::RETRYABLE, true ) ) {
			// Finished without money: the next attempt makes a new payment under a new key.
			$order->update_meta_data( self::ATTEMPT_META, (int) $order->get_meta( self::ATTEMPT_META ) + 1 );
			$order->delete_meta_data( self::PAYMENT_META );
			$order->delete_meta_data( self::CHECKOUT_META );
			$order->save();
			return null;
		}
		if ( 'open' === $status ) {
			// Back to its checkout; another method chosen meanwhile gets its own payment (its own key, below).
			return '' === $method || (string) ( $payment['method'] ?? '' ) === $method ? $url : null;
		}
		// Paid or under way (a bank transfer, a pending debit): never a second payment.
		return $this->get_return_url( $order );
	}

	/** @return array<string, mixed> */
	private function create_payment( WC_Order $order, string $method ): array {
		if ( '' === (string) $order->get_meta( self::ATTEMPT_META ) ) {
			$order->update_meta_data( self::ATTEMPT_META, 1 );
			$order->save(); // Saved before the service is asked: the key below survives a lost answer.
		}
		$customer = $this->api()->find_or_create_customer(
			array(
				'first_name' => self::name_or_dash( $order->get_billing_first_name() ),
				'last_name'  => self::name_or_dash( $order->get_billing_last_name() ),
				'email'      => $order->get_billing_email(),
			)
		);
		$body = array(
			'amount'               => RPS_Money::to_number( RPS_Money::to_cents( wc_format_decimal( $order->get_total(), 2 ) ) ),
			'currency'             => $order->get_currency(),
			'provider_customer_id' => (string) ( $customer['provider_customer_id'] ?? '' ),
			/* translators: %s: the order number */
			'description'          => sprintf( __( 'Order %s', 'recurring-payments-bridge' ), $order->get_order_number() ),
			'redirect_url'         => $this->get_return_url( $order ),
			'webhook_url'          => RPS_Callback::url_for( $order ),
		);
		if ( '' !== $method ) {
			$body['method'] = $method;
		}
		// The method is part of the request, so part of the key: a retry that picks another method is
		// another request, not a reuse of the key with a different body (which the service refuses).
		$key = sprintf( 'wc-%s-order-%d-%d-%s', self::site_key(), $order->get_id(), (int) $order->get_meta( self::ATTEMPT_META ), '' === $method ? 'any' : $method );
		if ( 'yes' === RPS_Settings::get( 'store_connected' ) ) {
			try {
				// The service checks the payment against the store's order.
				return $this->api()->post( '/api/v2/payments', $body + array( 'shop_order_id' => $order->get_id() ), $key );
			} catch ( RPS_Api_Error $error ) {
				if ( RPS_Api_Client::NOT_CONNECTED !== $error->error_code ) {
					throw $error;
				}
				// Disconnected at the service (the client has noted it): the buyer still pays, a plain payment.
				self::log_lost_connection( $order );
			}
		}
		// Without shop_order_id the body differs, so the key does too (the same key with another body is refused).
		return $this->api()->post( '/api/v2/payments', $body, $key . '-plain' );
	}

	private static function log_lost_connection( WC_Order $order ): void {
		RPS_Callback::log( 'warning', sprintf( 'The service says this store is not connected; order %d is paid with a plain payment. Connect the store again under WooCommerce → Recurring payments.', $order->get_id() ) );
	}

	/** The method the buyer picked, when the account offers it; '' lets the provider's checkout ask. */
	private function chosen_method( WC_Order $order ): string {
		// phpcs:ignore WordPress.Security.NonceVerification.Missing -- WooCommerce checked the checkout nonce.
		$method = isset( $_POST['rps_method'] ) ? sanitize_key( wp_unslash( $_POST['rps_method'] ) ) : '';
		return in_array( $method, self::offered_methods( $this->api(), self::for_mandate( $order ) ), true ) ? $method : '';
	}

	/** Shops share one service account only with their own keys: two sites never share an order's key. */
	private static function site_key(): string {
		return substr( hash( 'sha256', home_url() ), 0, 12 );
	}

	private static function name_or_dash( string $name ): string {
		$name = trim( $name );
		return '' === $name ? '-' : $name;
	}

	/** @return array{result: string} */
	private function refuse( string $notice, string $log_line ): array {
		RPS_Callback::log( 'error', $log_line );
		wc_add_notice( $notice, 'error' );
		return array( 'result' => 'failure' );
	}

	private function api(): RPS_Api_Client {
		return $this->api ??= RPS_Api_Client::from_settings();
	}
}
