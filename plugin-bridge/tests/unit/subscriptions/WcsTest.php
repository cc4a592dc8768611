<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

/** WooCommerce Subscriptions present: our gateway bills its subscriptions, and their status follows the service's both ways. */
final class WcsTest extends StubTestCase {

	private const SUB = 'sub_wcs1';

	private static function api(): RPS_Api_Client {
		return new RPS_Api_Client( self::SERVICE, self::TOKEN );
	}

	/** @param array<string, mixed> $fields */
	private static function wcs( array $fields = array() ): WC_Subscription {
		$subscription = new WC_Subscription( $fields + array( 'id' => 501, 'type' => 'shop_subscription', 'status' => 'active', 'parent_id' => 42, 'total' => '12.10', 'order_key' => 'wc_order_sub' ) );
		$subscription->save();
		return $subscription;
	}

	/** @param array<string, mixed> $fields */
	private static function service_subscription( array $fields = array() ): array {
		return $fields + array(
			'id'                   => self::SUB,
			'status'               => 'active',
			'next_payment_at'      => '2027-01-05',
			'cancel_at'            => null,
			'shop_subscription_id' => 501,
		);
	}

	public function test_with_the_extension_active_the_gateway_supports_its_subscriptions_billed_by_the_service(): void {
		self::assertSame( array( 'products', 'refunds' ), RPS_Gateway::supports_with( false ) );
		$supports = RPS_Gateway::supports_with( true );
		foreach ( array( 'products', 'refunds', 'subscriptions', 'gateway_scheduled_payments', 'subscription_cancellation', 'subscription_suspension', 'subscription_reactivation', 'multiple_subscriptions' ) as $feature ) {
			self::assertContains( $feature, $supports );
		}
		self::assertNotContains( 'subscription_amount_changes', $supports );
		self::assertNotContains( 'subscription_date_changes', $supports );
	}

	/**
	 * Handing a subscription to our gateway (the extension's admin change of payment method) is possible
	 * only in the service's own REST requests: those made with the key the plugin made for it.
	 *
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	public function test_only_the_service_may_hand_a_subscription_to_our_gateway(): void {
		eval( 'final class WC_Subscriptions {}' ); // phpcs:ignore Squiz.PHP.Eval.Discouraged -- the extension's presence, in this process only.
		RPS_Settings::update( array( 'rest_key_id' => 7 ) );
		$gateway = new RPS_Gateway( self::api() );
		self::assertTrue( $gateway->supports( 'gateway_scheduled_payments' ) );

		// wp-admin (no REST key), another REST key, then the service's key.
		self::assertFalse( $gateway->supports( RPS_Wcs::ADMIN_CHANGE ) );
		self::assertTrue( RPS_Wcs::note_rest_key( true, 8 ) );
		self::assertFalse( $gateway->supports( RPS_Wcs::ADMIN_CHANGE ) );
		self::assertFalse( RPS_Wcs::note_rest_key( false, '7' ) );
		self::assertTrue( $gateway->supports( RPS_Wcs::ADMIN_CHANGE ) );

		// A store connected without the plugin's key (none recorded): nobody.
		RPS_Settings::update( array( 'rest_key_id' => 0 ) );
		RPS_Wcs::note_rest_key( false, 0 );
		self::assertFalse( $gateway->supports( RPS_Wcs::ADMIN_CHANGE ) );
	}

	public function test_without_the_extension_our_gateway_never_takes_a_subscription_over(): void {
		RPS_Settings::update( array( 'rest_key_id' => 7 ) );
		RPS_Wcs::note_rest_key( false, 7 );
		self::assertFalse( ( new RPS_Gateway( self::api() ) )->supports( RPS_Wcs::ADMIN_CHANGE ) );
		RPS_Wcs::note_rest_key( false, 0 );
	}

	public function test_at_checkout_the_order_names_the_extension_subscription_of_each_line(): void {
		$order        = self::order();
		$order->items = array(
			new WC_Order_Item_Product( new WC_Product( 100, 'Coffee club' ), 1, 7 ),
			new WC_Order_Item_Product( new WC_Product( 200, 'Mug' ), 1, 8 ),
			new WC_Order_Item_Product( new WC_Product( 300, 'Tea club' ), 2, 9 ),
		);
		$first        = self::wcs();
		$first->items = array( new WC_Order_Item_Product( new WC_Product( 100, 'Coffee club' ), 1, 70 ) );
		RPS_Wcs::record_lines( $first, $order );
		self::assertSame( array( '7' => 501 ), json_decode( (string) self::stored()['meta'][ RPS_Wcs::LINES_META ], true ) );

		$second        = self::wcs( array( 'id' => 502 ) );
		$second->items = array( new WC_Order_Item_Product( new WC_Product( 300, 'Tea club' ), 2, 90 ) );
		$again        = wc_get_order( 42 );
		$again->items = $order->items; // The same checkout order, read again.
		RPS_Wcs::record_lines( $second, $again );
		self::assertSame( array( '7' => 501, '9' => 502 ), json_decode( (string) self::stored()['meta'][ RPS_Wcs::LINES_META ], true ) );
	}

	public function test_an_order_paid_with_another_gateway_gets_no_lines(): void {
		$order        = self::order( array( 'payment_method' => 'cod' ) );
		$order->items = array( new WC_Order_Item_Product( new WC_Product( 100 ), 1, 7 ) );
		$subscription        = self::wcs();
		$subscription->items = array( new WC_Order_Item_Product( new WC_Product( 100 ), 1, 70 ) );
		RPS_Wcs::record_lines( $subscription, $order );
		self::assertArrayNotHasKey( RPS_Wcs::LINES_META, self::stored()['meta'] );
	}

	public function test_a_renewal_order_the_service_writes_is_linked_to_the_extension_subscription_with_its_next_date(): void {
		self::wcs( array( 'dates' => array( 'next_payment' => '2026-12-01 10:00:00' ) ) );
		$renewal = self::order(
			array(
				'id'   => 77,
				'meta' => array(
					RPS_Wcs::RENEWAL_META          => '501',
					RPS_Wcs::ORDER_SERVICE_ID_META => self::SUB,
					RPS_Wcs::NEXT_PAYMENT_META     => '2099-02-01',
				),
			)
		);
		RPS_Wcs::link_renewal( $renewal, null, true );
		self::assertSame( array( array( 77, 501, 'renewal' ) ), RPS_Stub_State::$options['stub_wcs_relations'] );
		$subscription = self::stored( 501 );
		self::assertSame( self::SUB, $subscription['meta'][ RPS_Wcs::SERVICE_ID_META ] );
		self::assertSame( '2099-01-31 23:00:00', $subscription['dates']['next_payment'] ); // Amsterdam's midnight, in GMT.
		self::assertStringContainsString( 'Renewal order 77', implode( "\n", $subscription['notes'] ) );
	}

	public function test_an_order_not_made_by_the_service_or_an_update_is_not_linked(): void {
		self::wcs();
		RPS_Wcs::link_renewal( self::order( array( 'id' => 78, 'meta' => array( RPS_Wcs::RENEWAL_META => '501' ) ) ), null, true );
		RPS_Wcs::link_renewal( self::order( array( 'id' => 79, 'meta' => array( RPS_Wcs::RENEWAL_META => '501', RPS_Wcs::ORDER_SERVICE_ID_META => self::SUB ) ) ), null, false );
		self::assertArrayNotHasKey( 'stub_wcs_relations', RPS_Stub_State::$options );
	}

	public function test_cancelled_in_the_extension_cancels_at_the_service_once(): void {
		$subscription = self::wcs( array( 'meta' => array( RPS_Wcs::SERVICE_ID_META => self::SUB ) ) );
		self::answer( 200, self::service_subscription() );
		self::answer( 200, self::service_subscription( array( 'status' => 'cancelled' ) ) );
		self::assertSame( 'told', RPS_Wcs::status_changed( $subscription, 'cancelled', self::api() ) );
		self::assertSame( array( 'GET /api/v2/subscriptions/' . self::SUB, 'DELETE /api/v2/subscriptions/' . self::SUB ), self::requests_made() );

		// Told again (the service's callback came back, the hook ran once more): the service is cancelled, nothing is sent.
		RPS_Stub_State::$requests = array();
		self::answer( 200, self::service_subscription( array( 'status' => 'cancelled' ) ) );
		self::assertSame( 'already cancelled', RPS_Wcs::status_changed( $subscription, 'cancelled', self::api() ) );
		self::assertSame( array( 'GET /api/v2/subscriptions/' . self::SUB ), self::requests_made() );
	}

	public function test_pending_cancel_in_the_extension_cancels_at_the_end_of_the_paid_period(): void {
		$subscription = self::wcs( array( 'meta' => array( RPS_Wcs::SERVICE_ID_META => self::SUB ) ) );
		self::answer( 200, self::service_subscription() );
		self::answer( 200, self::service_subscription( array( 'cancel_at' => '2027-01-05' ) ) );
		self::assertSame( 'told', RPS_Wcs::status_changed( $subscription, 'pending-cancel', self::api() ) );
		self::assertSame( array( 'cancel_at' => '2027-01-05' ), self::body_sent_to( 'DELETE', '/api/v2/subscriptions/' . self::SUB ) );

		// The extension ends it at that date (cancelled): the service's dated cancellation stands, nothing is sent.
		RPS_Stub_State::$requests = array();
		self::answer( 200, self::service_subscription( array( 'cancel_at' => '2027-01-05', 'next_payment_at' => null ) ) );
		self::assertSame( 'already cancelled', RPS_Wcs::status_changed( $subscription, 'cancelled', self::api() ) );
		self::assertSame( array( 'GET /api/v2/subscriptions/' . self::SUB ), self::requests_made() );
	}

	public function test_on_hold_pauses_and_reactivation_resumes_at_the_service_only_from_the_other_state(): void {
		$subscription = self::wcs( array( 'meta' => array( RPS_Wcs::SERVICE_ID_META => self::SUB ) ) );
		self::answer( 200, self::service_subscription() );
		self::answer( 200, self::service_subscription( array( 'status' => 'paused' ) ) );
		self::assertSame( 'told', RPS_Wcs::status_changed( $subscription, 'on-hold', self::api() ) );
		self::answer( 200, self::service_subscription( array( 'status' => 'paused' ) ) );
		self::assertSame( 'not active', RPS_Wcs::status_changed( $subscription, 'on-hold', self::api() ) );
		self::answer( 200, self::service_subscription( array( 'status' => 'paused' ) ) );
		self::answer( 200, self::service_subscription() );
		self::assertSame( 'told', RPS_Wcs::status_changed( $subscription, 'activated', self::api() ) );
		self::answer( 200, self::service_subscription() );
		self::assertSame( 'not paused', RPS_Wcs::status_changed( $subscription, 'activated', self::api() ) );
		self::assertSame(
			array(
				'GET /api/v2/subscriptions/' . self::SUB,
				'POST /api/v2/subscriptions/' . self::SUB . '/pause',
				'GET /api/v2/subscriptions/' . self::SUB,
				'GET /api/v2/subscriptions/' . self::SUB,
				'POST /api/v2/subscriptions/' . self::SUB . '/resume',
				'GET /api/v2/subscriptions/' . self::SUB,
			),
			self::requests_made()
		);
	}

	public function test_a_status_a_renewal_order_outcome_caused_is_not_told_to_the_service(): void {
		$subscription                                = self::wcs( array( 'meta' => array( RPS_Wcs::SERVICE_ID_META => self::SUB ) ) );
		RPS_Stub_State::$options['stub_doing'] = array( 'woocommerce_order_status_changed' );
		self::assertSame( "a renewal order's outcome", RPS_Wcs::status_changed( $subscription, 'on-hold', self::api() ) );
		self::assertSame( array(), self::requests_made() );
	}

	public function test_the_service_subscription_is_found_among_those_the_checkout_order_started_and_kept(): void {
		self::order( array( 'meta' => array( RPS_Wcs::ORDER_SERVICE_IDS_META => 'sub_other,' . self::SUB ) ) );
		$subscription = self::wcs();
		self::answer( 200, self::service_subscription( array( 'id' => 'sub_other', 'shop_subscription_id' => 502 ) ) );
		self::answer( 200, self::service_subscription() );
		self::assertSame( self::SUB, RPS_Wcs::service_id_of( $subscription, self::api() ) );
		self::assertSame( self::SUB, self::stored( 501 )['meta'][ RPS_Wcs::SERVICE_ID_META ] );
		self::assertSame( self::SUB, RPS_Wcs::service_id_of( wcs_get_subscription( 501 ), self::api() ) );
		self::assertCount( 2, self::requests_made() ); // The second time from the kept id, without asking.
	}

	public function test_the_service_cancel_with_a_date_to_come_makes_the_extension_subscription_pending_cancel_without_calling_back(): void {
		self::wcs();
		// The extension's hook for our gateway, as the extension runs it after a status change.
		RPS_Stub_State::$options['stub_wcs_status_hook'] = static fn ( WC_Subscription $subscription, string $status ) => RPS_Wcs::status_changed( $subscription, $status, self::api() );
		$event = array( 'event' => 'subscription.cancelled', 'id' => self::SUB, 'cancel_at' => '2099-01-05' );
		self::assertSame( 'pending-cancel', RPS_Wcs::apply_event( $event, self::service_subscription( array( 'cancel_at' => '2099-01-05' ) ) ) );
		self::assertSame( 'pending-cancel', self::stored( 501 )['status'] );
		self::assertSame( array(), self::requests_made() ); // No loop: the service is not asked.
		self::assertSame( self::SUB, self::stored( 501 )['meta'][ RPS_Wcs::SERVICE_ID_META ] );

		// The same callback again: nothing changes.
		self::assertSame( 'already pending-cancel', RPS_Wcs::apply_event( $event, self::service_subscription( array( 'cancel_at' => '2099-01-05' ) ) ) );
		self::assertSame( array( array( 501, 'pending-cancel' ) ), RPS_Stub_State::$options['stub_wcs_status_changes'] );
	}

	public function test_the_service_cancel_today_pause_and_resume_change_the_extension_subscription(): void {
		self::wcs();
		self::assertSame( 'on-hold', RPS_Wcs::apply_event( array( 'event' => 'subscription.paused' ), self::service_subscription( array( 'status' => 'paused' ) ) ) );
		self::assertSame( 'nothing to change', RPS_Wcs::apply_event( array( 'event' => 'subscription.paused' ), self::service_subscription( array( 'status' => 'paused' ) ) ) );
		self::assertSame( 'active', RPS_Wcs::apply_event( array( 'event' => 'subscription.resumed' ), self::service_subscription() ) );
		self::assertSame( 'cancelled', RPS_Wcs::apply_event( array( 'event' => 'subscription.cancelled', 'cancel_at' => '2020-01-01' ), self::service_subscription( array( 'status' => 'cancelled' ) ) ) );
		self::assertSame( 'already cancelled', RPS_Wcs::apply_event( array( 'event' => 'subscription.cancelled' ), self::service_subscription( array( 'status' => 'cancelled' ) ) ) );
		self::assertSame( array( array( 501, 'on-hold' ), array( 501, 'active' ), array( 501, 'cancelled' ) ), RPS_Stub_State::$options['stub_wcs_status_changes'] );
	}

	public function test_a_service_subscription_without_an_extension_subscription_changes_nothing(): void {
		self::wcs( array( 'payment_method' => 'cod' ) );
		$paused = array( 'event' => 'subscription.paused' );
		self::assertSame( 'not an extension subscription', RPS_Wcs::apply_event( $paused, self::service_subscription( array( 'shop_subscription_id' => null ) ) ) );
		self::assertSame( 'not an extension subscription', RPS_Wcs::apply_event( $paused, self::service_subscription() ) ); // Another gateway's.
		self::assertSame( 'active', self::stored( 501 )['status'] );
	}

	public function test_a_subscription_the_import_took_over_is_found_by_the_id_its_switch_kept_on_it(): void {
		// Taken over from Mollie's plugin without a parent order and before any renewal: only the import's meta names ours.
		$subscription = self::wcs( array( 'parent_id' => 0, 'meta' => array( RPS_Wcs::SERVICE_ID_META => self::SUB ) ) );
		self::answer( 200, self::service_subscription() );
		self::answer( 200, self::service_subscription( array( 'status' => 'cancelled' ) ) );
		self::assertSame( 'told', RPS_Wcs::status_changed( $subscription, 'cancelled', self::api() ) );
		self::assertSame( array( 'GET /api/v2/subscriptions/' . self::SUB, 'DELETE /api/v2/subscriptions/' . self::SUB ), self::requests_made() );
	}

	public function test_without_the_id_on_it_the_service_subscription_is_found_by_the_store_id_through_the_api_and_kept(): void {
		$subscription = self::wcs( array( 'parent_id' => 0 ) );
		self::answer(
			200,
			array(
				'data' => array(
					self::service_subscription( array( 'id' => 'sub_ended', 'status' => 'cancelled' ) ),
					self::service_subscription(),
					self::service_subscription( array( 'id' => 'sub_other', 'shop_subscription_id' => 502 ) ),
				),
			)
		);
		self::answer( 200, self::service_subscription() );
		self::answer( 200, self::service_subscription( array( 'status' => 'paused' ) ) );
		self::assertSame( 'told', RPS_Wcs::status_changed( $subscription, 'on-hold', self::api() ) );
		self::assertSame(
			array(
				'GET /api/v2/subscriptions?shop_subscription_id=501',
				'GET /api/v2/subscriptions/' . self::SUB,
				'POST /api/v2/subscriptions/' . self::SUB . '/pause',
			),
			self::requests_made()
		);
		self::assertSame( self::SUB, self::stored( 501 )['meta'][ RPS_Wcs::SERVICE_ID_META ] );

		// None at the service: nothing there bills it, nothing is kept.
		RPS_Stub_State::$requests = array();
		$other                    = self::wcs( array( 'id' => 503, 'parent_id' => 0 ) );
		self::answer( 200, array( 'data' => array() ) );
		self::assertSame( 'no subscription at the service', RPS_Wcs::status_changed( $other, 'cancelled', self::api() ) );
		self::assertArrayNotHasKey( RPS_Wcs::SERVICE_ID_META, self::stored( 503 )['meta'] ?? array() );
	}

	public function test_a_status_change_the_service_cannot_be_told_of_leaves_a_note_and_a_notice_and_is_sent_again_until_it_has_it(): void {
		$GLOBALS['rps_stub_single_events'] = array();
		$subscription                      = self::wcs( array( 'status' => 'cancelled', 'meta' => array( RPS_Wcs::SERVICE_ID_META => self::SUB ) ) );
		self::no_answer();
		self::assertSame( 'failed, retried', RPS_Wcs::status_changed( $subscription, 'cancelled', self::api() ) );
		self::assertStringContainsString( 'It is sent again', implode( "\n", self::stored( 501 )['notes'] ) );
		self::assertSame( array( '501' => 'cancelled' ), get_option( RPS_Wcs::UNSENT_OPTION ) );
		self::assertStringContainsString( '#501', RPS_Admin_Page::notices_html() );
		[ $when, $hook, $args ] = $GLOBALS['rps_stub_single_events'][0];
		self::assertSame( array( RPS_Wcs::RETRY_HOOK, array( 501, 'cancelled', 1 ) ), array( $hook, $args ) );
		self::assertEqualsWithDelta( time() + RPS_Wcs::RETRY_FIRST_SECONDS, $when, 5 );

		// The retry fails too (the service answers 503): scheduled again, later; no second note.
		self::answer( 503, array( 'code' => 'unavailable', 'message' => 'Service unavailable' ) );
		self::assertSame( 'failed, retried', RPS_Wcs::retry_status( 501, 'cancelled', 1, self::api() ) );
		[ $when, $hook, $args ] = $GLOBALS['rps_stub_single_events'][1];
		self::assertSame( array( RPS_Wcs::RETRY_HOOK, array( 501, 'cancelled', 2 ) ), array( $hook, $args ) );
		self::assertEqualsWithDelta( time() + 2 * RPS_Wcs::RETRY_FIRST_SECONDS, $when, 5 );
		self::assertCount( 1, array_filter( self::stored( 501 )['notes'], static fn ( string $note ): bool => str_contains( $note, 'sent again' ) ) );

		// Then the service answers: told, the notice goes.
		self::answer( 200, self::service_subscription() );
		self::answer( 200, self::service_subscription( array( 'status' => 'cancelled' ) ) );
		self::assertSame( 'told', RPS_Wcs::retry_status( 501, 'cancelled', 2, self::api() ) );
		self::assertContains( 'DELETE /api/v2/subscriptions/' . self::SUB, self::requests_made() );
		self::assertSame( array(), get_option( RPS_Wcs::UNSENT_OPTION ) );
		self::assertStringNotContainsString( '#501', RPS_Admin_Page::notices_html() );
		self::assertCount( 2, $GLOBALS['rps_stub_single_events'] );
	}

	public function test_a_retry_of_a_change_made_undone_since_sends_nothing(): void {
		self::wcs( array( 'status' => 'active', 'meta' => array( RPS_Wcs::SERVICE_ID_META => self::SUB ) ) );
		self::assertSame( 'superseded', RPS_Wcs::retry_status( 501, 'on-hold', 1, self::api() ) );
		self::assertSame( array(), self::requests_made() );
	}

	/**
	 * Where WooCommerce's Action Scheduler is present, the retry is its action.
	 *
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	public function test_the_retry_is_an_action_scheduler_action_where_woocommerce_has_it(): void {
		// phpcs:ignore Squiz.PHP.Eval.Discouraged -- Action Scheduler's function, in this process only.
		eval( 'function as_schedule_single_action( $when, $hook, $args, $group ) { RPS_Stub_State::$options["stub_actions"][] = array( $hook, $args, $group ); return 1; }' );
		$GLOBALS['rps_stub_single_events'] = array();
		$subscription                      = self::wcs( array( 'status' => 'on-hold', 'meta' => array( RPS_Wcs::SERVICE_ID_META => self::SUB ) ) );
		self::no_answer();
		self::assertSame( 'failed, retried', RPS_Wcs::status_changed( $subscription, 'on-hold', self::api() ) );
		self::assertSame( array( array( RPS_Wcs::RETRY_HOOK, array( 501, 'on-hold', 1 ), 'recurring-payments-bridge' ) ), RPS_Stub_State::$options['stub_actions'] );
		self::assertSame( array(), $GLOBALS['rps_stub_single_events'] );
	}
}
