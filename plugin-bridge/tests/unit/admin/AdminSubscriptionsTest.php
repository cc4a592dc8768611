<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

/** WooCommerce → Subscriptions, its row actions, the order box's link and the dashboard widget. */
final class AdminSubscriptionsTest extends StubTestCase {

	protected function tearDown(): void {
		$_REQUEST = array();
	}

	/** @return array<string, mixed> */
	private static function subscription( string $id = 'sub_1', string $status = 'active' ): array {
		return array(
			'id'                  => $id,
			'name'                => 'Coffee every month',
			'status'              => $status,
			'next_payment_at'     => '2026-12-24',
			'next_amount'         => '24.20',
			'provider_mandate_id' => 'mdt_1',
			'rules'               => array( array( 'amount' => '24.20', 'currency' => 'EUR', 'times' => null, 'times_done' => 2 ) ),
			'customer'            => array( 'id' => 'cus_1', 'first_name' => 'Anna', 'last_name' => 'Bakker', 'email' => 'anna@example.nl' ),
		);
	}

	/** @param array<string, string> $query */
	private static function act( string $action, string $subscription = 'sub_1', ?string $nonce = null ): string {
		$_REQUEST = array( '_wpnonce' => $nonce ?? wp_create_nonce( RPS_Admin_Subscriptions::ACTION . '-' . $action . '-' . $subscription ) );
		return RPS_Admin_Subscriptions::handle( array( 'do' => $action, 'subscription' => $subscription ), RPS_Api_Client::from_settings() );
	}

	public function test_a_page_of_subscriptions_costs_two_calls_and_shows_each_ones_details(): void {
		self::order( array( 'id' => 50, 'meta' => array( '_rps_subscription_id' => 'sub_1' ) ) );
		self::answer( 200, array( 'data' => array( self::subscription(), self::subscription( 'sub_2', 'paused' ) ), 'meta' => array( 'total' => 41 ) ) );
		self::answer(
			200,
			array(
				'data' => array(
					array( 'id' => 'fu_1', 'subscription' => array( 'id' => 'sub_1' ) ),
					array( 'id' => 'fu_2', 'subscription' => array( 'id' => 'sub_1' ) ),
					array( 'id' => 'fu_3', 'subscription' => null ),
				),
			)
		);
		$html = RPS_Admin_Subscriptions::html( array( 'status' => 'active', 'subscription_id' => '', 'paged' => 2 ), RPS_Api_Client::from_settings() );

		$this->assertSame( array( 'GET /api/v2/subscriptions?page=2&per_page=20&status=active', 'GET /api/v2/follow-ups?status=pending&per_page=100' ), self::requests_made() );
		$this->assertStringContainsString( 'Anna Bakker', $html );
		$this->assertStringContainsString( '€24.20', $html );
		$this->assertStringContainsString( '2026-12-24', $html );
		$this->assertStringContainsString( 'mdt_1', $html );
		$this->assertStringContainsString( '<td class="column-follow_ups">2</td>', $html );
		$this->assertStringContainsString( 'page=wc-orders&action=edit&id=50', $html );
		$this->assertStringContainsString( 'do=skip&subscription=sub_1&status=active&_wpnonce=', $html, 'active: skip' );
		$this->assertStringContainsString( 'do=resume&subscription=sub_2', $html, 'paused: resume' );
		$this->assertStringNotContainsString( 'do=skip&subscription=sub_2', $html );
	}

	public function test_a_cancelled_subscription_is_listed_as_cancelled_not_as_ending_on_a_past_day(): void {
		$ending    = array_merge( self::subscription( 'sub_1' ), array( 'cancel_at' => '2026-12-24' ) );
		$cancelled = array_merge( self::subscription( 'sub_2', 'cancelled' ), array( 'cancel_at' => '2026-12-24', 'next_payment_at' => null ) );
		self::answer( 200, array( 'data' => array( $ending, $cancelled ), 'meta' => array( 'total' => 2 ) ) );
		self::answer( 200, array( 'data' => array() ) );
		$html = RPS_Admin_Subscriptions::html( array( 'status' => '', 'subscription_id' => '', 'paged' => 1 ), RPS_Api_Client::from_settings() );

		$this->assertStringContainsString( '<td class="column-status">Active (ends 2026-12-24)</td>', $html );
		$this->assertStringContainsString( '<td class="column-status">Cancelled</td>', $html );
	}

	public function test_the_order_box_shows_each_subscriptions_status_as_the_list_does(): void {
		$order = self::order();
		self::answer(
			200,
			array(
				'payments'      => array(),
				'subscriptions' => array(
					array( 'id' => 'sub_1', 'name' => 'Order 35: Milk club', 'status' => 'active', 'next_payment_at' => null, 'cancel_at' => '2026-12-24' ),
					array( 'id' => 'sub_2', 'name' => 'Order 35: Syrup club', 'status' => 'active', 'next_payment_at' => '2026-12-24', 'cancel_at' => null ),
					array( 'id' => 'sub_3', 'name' => 'Order 35: Tea club', 'status' => 'cancelled', 'next_payment_at' => null, 'cancel_at' => '2026-11-24' ),
				),
			)
		);
		$box = RPS_Order_Box::html( $order, RPS_Api_Client::from_settings() );
		$this->assertStringContainsString( '<li>Order 35: Milk club — Active (ends 2026-12-24), next payment —</li>', $box );
		$this->assertStringContainsString( '<li>Order 35: Syrup club — Active, next payment 2026-12-24</li>', $box );
		$this->assertStringContainsString( '<li>Order 35: Tea club — Cancelled, next payment —</li>', $box );
	}

	public function test_the_order_boxs_link_shows_that_orders_subscriptions(): void {
		$order = self::order();
		self::answer( 200, array( 'payments' => array(), 'subscriptions' => array( self::subscription(), self::subscription( 'sub_2' ) ) ) );
		$box = RPS_Order_Box::html( $order, RPS_Api_Client::from_settings() );
		$this->assertStringContainsString( 'admin.php?page=rps-subscriptions&subscription_id=sub_1%2Csub_2', $box );

		self::answer( 200, self::subscription() );
		self::answer( 200, self::subscription( 'sub_2' ) );
		self::answer( 200, array( 'data' => array() ) );
		RPS_Admin_Subscriptions::html( array( 'status' => '', 'subscription_id' => 'sub_1,sub_2', 'paged' => 1 ), RPS_Api_Client::from_settings() );
		$this->assertSame( array( 'GET /api/v2/shop/orders/42', 'GET /api/v2/subscriptions/sub_1', 'GET /api/v2/subscriptions/sub_2', 'GET /api/v2/follow-ups?status=pending&per_page=100' ), self::requests_made() );
	}

	public function test_a_service_that_does_not_answer_leaves_a_notice_on_the_page(): void {
		self::no_answer();
		$this->assertStringContainsString( 'could not be reached', RPS_Admin_Subscriptions::html( array( 'status' => '', 'subscription_id' => '', 'paged' => 1 ), RPS_Api_Client::from_settings() ) );
	}

	public function test_an_action_needs_manage_woocommerce_and_a_nonce_before_anything_is_asked(): void {
		RPS_Stub_State::$denied_capabilities = array( 'manage_woocommerce' );
		try {
			self::act( 'cancel' );
			$this->fail( 'a user without the capability acted' );
		} catch ( RPS_Stub_Exit $exit ) {
			$this->assertSame( 403, $exit->status );
		}
		RPS_Stub_State::$denied_capabilities = array();
		foreach ( array( '', wp_create_nonce( RPS_Admin_Subscriptions::ACTION . '-cancel-sub_2' ) ) as $nonce ) {
			try {
				self::act( 'cancel', 'sub_1', $nonce );
				$this->fail( 'a wrong nonce acted' );
			} catch ( RPS_Stub_Exit $exit ) {
				$this->assertSame( 403, $exit->status );
			}
		}
		$this->assertSame( array(), self::requests_made() );
	}

	public function test_the_list_page_needs_manage_woocommerce(): void {
		RPS_Stub_State::$denied_capabilities = array( 'manage_woocommerce' );
		$this->expectException( RPS_Stub_Exit::class );
		RPS_Admin_Subscriptions::render();
	}

	public function test_cancel_ends_the_subscription_after_the_paid_period_and_says_so_on_the_list(): void {
		self::answer( 200, self::subscription() );
		self::answer( 200, self::subscription() );
		$this->assertSame( 'https://shop.example/wp-admin/admin.php?page=rps-subscriptions', self::act( 'cancel' ) );
		$this->assertSame( array( 'cancel_at' => '2026-12-24' ), self::body_sent_to( 'DELETE', '/api/v2/subscriptions/sub_1' ) );
		$this->assertSame( 'success', RPS_Stub_State::$transients['rps_subscriptions_notice_1'][0] );
	}

	public function test_an_action_from_a_status_view_returns_to_that_view(): void {
		self::answer( 200, array( 'data' => array( self::subscription() ), 'meta' => array( 'total' => 1 ) ) );
		self::answer( 200, array( 'data' => array() ) );
		$html = RPS_Admin_Subscriptions::html( array( 'status' => 'active', 'subscription_id' => '', 'paged' => 1 ), RPS_Api_Client::from_settings() );
		$this->assertStringContainsString( 'do=cancel&subscription=sub_1&status=active&_wpnonce=', $html );

		self::answer( 200, self::subscription() );
		self::answer( 200, self::subscription() );
		$_REQUEST = array( '_wpnonce' => wp_create_nonce( RPS_Admin_Subscriptions::ACTION . '-cancel-sub_1' ) );
		$back     = RPS_Admin_Subscriptions::handle( array( 'do' => 'cancel', 'subscription' => 'sub_1', 'status' => 'active' ), RPS_Api_Client::from_settings() );
		$this->assertSame( 'https://shop.example/wp-admin/admin.php?page=rps-subscriptions&status=active', $back );

		$_REQUEST = array( '_wpnonce' => wp_create_nonce( RPS_Admin_Subscriptions::ACTION . '-cancel-sub_1' ) );
		$back     = RPS_Admin_Subscriptions::handle( array( 'do' => 'cancel', 'subscription' => 'sub_1', 'status' => '"><script>' ), RPS_Api_Client::from_settings() );
		$this->assertSame( 'https://shop.example/wp-admin/admin.php?page=rps-subscriptions', $back, 'no view but the known ones' );
	}

	public function test_pause_has_no_end_date_and_an_action_the_status_does_not_allow_is_refused(): void {
		self::answer( 200, self::subscription() );
		self::answer( 200, self::subscription( 'sub_1', 'paused' ) );
		self::act( 'pause' );
		$this->assertSame( array(), self::body_sent_to( 'POST', '/api/v2/subscriptions/sub_1/pause' ) );

		RPS_Stub_State::$requests = array();
		self::answer( 200, self::subscription() );
		self::act( 'resume' );
		$this->assertSame( array( 'GET /api/v2/subscriptions/sub_1' ), self::requests_made() );
		$this->assertSame( 'error', RPS_Stub_State::$transients['rps_subscriptions_notice_1'][0] );
	}

	public function test_the_dashboard_widget_shows_the_services_summary_and_caches_it(): void {
		self::answer( 200, array( 'active_subscriptions' => 12, 'paused_subscriptions' => 1, 'monthly_recurring_revenue' => '290.40', 'currency' => 'EUR', 'open_follow_ups' => 2 ) );
		$html = RPS_Dashboard_Widget::html( RPS_Api_Client::from_settings() );
		$this->assertMatchesRegularExpression( '#Active subscriptions</a></th><td>12<#', $html );
		$this->assertStringContainsString( '€290.40', $html );
		$this->assertMatchesRegularExpression( '#Open follow-ups</th><td>2<#', $html );
		RPS_Dashboard_Widget::html( RPS_Api_Client::from_settings() );
		$this->assertSame( array( 'GET /api/v2/subscription-summary' ), self::requests_made(), 'the second view is cached' );
	}

	public function test_the_dashboard_widget_is_for_shop_managers_and_survives_an_outage(): void {
		RPS_Stub_State::$denied_capabilities = array( 'manage_woocommerce' );
		$this->assertSame( '', RPS_Dashboard_Widget::html( RPS_Api_Client::from_settings() ) );
		$this->assertSame( array(), self::requests_made() );
		RPS_Stub_State::$denied_capabilities = array();
		self::no_answer();
		$this->assertStringContainsString( 'could not be reached', RPS_Dashboard_Widget::html( RPS_Api_Client::from_settings() ) );
	}
}
