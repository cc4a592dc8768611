<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

/**
 * My Account → Subscriptions: a buyer sees and acts on the subscriptions of their own service
 * customers only, with a nonce, and only as the account allows.
 */
final class MyAccountTest extends StubTestCase {

	private const BUYER = 7;

	protected function setUp(): void {
		parent::setUp();
		RPS_Stub_State::$user_id = self::BUYER;
		// The buyer's own checkout order (its billing e-mail found the service customer) and a renewal.
		self::order( array( 'id' => 42, 'customer_id' => self::BUYER, 'meta' => array( '_rps_subscription_ids' => 'sub_1,sub_2' ) ) );
		self::order( array( 'id' => 50, 'meta' => array( '_rps_subscription_id' => 'sub_1' ) ) );
		self::order( array( 'id' => 60, 'meta' => array( '_rps_subscription_ids' => 'sub_10' ) ) );
	}

	/** @return array<string, mixed> */
	private static function subscription( string $id = 'sub_1', string $customer = 'cus_1', array $fields = array() ): array {
		return $fields + array(
			'id'                  => $id,
			'name'                => 'Coffee every month',
			'status'              => 'active',
			'next_payment_at'     => '2026-12-24',
			'next_amount'         => '24.20',
			'cancel_at'           => null,
			'resume_at'           => null,
			'provider_mandate_id' => 'mdt_1',
			'rules'               => array( array( 'amount' => '24.20', 'currency' => 'EUR', 'interval' => 'month', 'interval_amount' => 1, 'times' => 3, 'times_done' => 1 ) ),
			'customer'            => array( 'id' => $customer, 'email' => 'anna@example.nl' ),
		);
	}

	private static function customers_found( string ...$ids ): void {
		self::answer( 200, array( 'data' => array_map( static fn ( string $id ): array => array( 'id' => $id, 'email' => 'anna@example.nl' ), $ids ) ) );
	}

	/** @param list<string> $actions */
	private static function portal( array $actions, int $max_pause_days = 30 ): void {
		self::answer( 200, array( 'connected' => true, 'portal' => array( 'allowed_actions' => $actions, 'max_pause_days' => $max_pause_days ) ) );
	}

	/** @param array<string, mixed> $fields */
	private static function post( string $action, array $fields = array(), string $subscription = 'sub_1' ): string {
		return RPS_My_Account::handle(
			$fields + array(
				'rps_subscription' => $subscription,
				'rps_action'       => $action,
				'_wpnonce'         => wp_create_nonce( RPS_My_Account::NONCE_ACTION . $subscription ),
			),
			self::BUYER,
			RPS_Api_Client::from_settings()
		);
	}

	public function test_the_page_lists_the_buyers_subscriptions_with_their_orders_and_only_the_allowed_actions(): void {
		self::customers_found( 'cus_1' );
		self::answer( 200, array( 'data' => array( self::subscription() ) ) );
		self::portal( array( 'cancel', 'skip' ) );

		$html = RPS_My_Account::html( self::BUYER, RPS_Api_Client::from_settings() );

		$this->assertSame( array( 'GET /api/v2/customers?email=anna%40example.nl&per_page=100', 'GET /api/v2/subscriptions?customer_id=cus_1&per_page=100', 'GET /api/v2/shop' ), self::requests_made() );
		$this->assertStringContainsString( 'Coffee every month', $html );
		$this->assertStringContainsString( 'Active', $html );
		$this->assertStringContainsString( '€24.20', $html );
		$this->assertStringContainsString( '2026-12-24', $html );
		$this->assertMatchesRegularExpression( '#Remaining payments</th><td>2<#', $html, '3 times, 1 done' );
		$this->assertStringContainsString( '/my-account/view-order/50/', $html );
		$this->assertStringContainsString( '/my-account/view-order/42/', $html );
		$this->assertStringNotContainsString( 'view-order/60/', $html, 'sub_10 is not sub_1' );
		$this->assertStringContainsString( 'value="cancel"', $html );
		$this->assertStringContainsString( 'value="skip"', $html );
		$this->assertStringNotContainsString( 'value="pause"', $html );
		$this->assertStringNotContainsString( 'value="change-method"', $html );
		$this->assertSame( array( 'cus_1' ), get_user_meta( self::BUYER, RPS_My_Account::CUSTOMER_META, true ), 'the customer found is stored' );
		$this->assertSame( RPS_Subscriptions::PORTAL_SECONDS, RPS_Stub_State::$transient_expirations[ RPS_Subscriptions::PORTAL_TRANSIENT ] );
	}

	public function test_an_ended_subscription_says_it_ended_and_one_cancelled_at_the_periods_end_says_when_with_nothing_left_to_pay(): void {
		self::customers_found( 'cus_1' );
		self::answer(
			200,
			array(
				'data' => array(
					self::subscription(
						'sub_1',
						'cus_1',
						array(
							'cancel_at'       => '2026-12-24',
							'next_payment_at' => null,
							'rules'           => array( array( 'amount' => '18.15', 'currency' => 'EUR', 'times' => null, 'times_done' => 1 ) ),
						)
					),
					self::subscription( 'sub_4', 'cus_1', array( 'cancel_at' => '2027-01-24' ) ),
					self::subscription( 'sub_2', 'cus_1', array( 'status' => 'cancelled', 'cancel_at' => '2026-11-24', 'next_payment_at' => null ) ),
					self::subscription( 'sub_3', 'cus_1', array( 'status' => 'completed', 'next_payment_at' => null ) ),
				),
			)
		);
		self::portal( array( 'cancel' ) );

		$html = RPS_My_Account::html( self::BUYER, RPS_Api_Client::from_settings() );

		preg_match_all( '#Status</th><td>([^<]*)</td>#', $html, $statuses );
		$this->assertSame( array( 'Completed', 'Cancelled', 'Active (ends 2027-01-24)', 'Active (ends 2026-12-24)' ), $statuses[1], 'newest first' );
		$this->assertStringNotContainsString( 'value="cancel"', $html, 'nothing left to cancel' );
		preg_match_all( '#Remaining payments</th><td>([^<]*)</td>#', $html, $remaining );
		$this->assertSame( array( '0', '0', '2', '0' ), $remaining[1], 'cancelled at the end of the paid period: nothing more is charged; a later end leaves what is due before it' );
	}

	public function test_a_buyer_without_orders_is_matched_by_no_address_and_sees_no_subscriptions(): void {
		RPS_Stub_State::$user_id = 8;
		$html                    = RPS_My_Account::html( 8, RPS_Api_Client::from_settings() );
		$this->assertStringContainsString( 'You have no subscriptions', $html );
		$this->assertSame( array(), self::requests_made() );
	}

	public function test_a_stored_customer_is_used_as_well_as_the_ones_found(): void {
		update_user_meta( self::BUYER, RPS_My_Account::CUSTOMER_META, array( 'cus_0' ) );
		self::customers_found( 'cus_1' );
		self::answer( 200, array( 'data' => array() ) );
		self::answer( 200, array( 'data' => array( self::subscription() ) ) );
		self::portal( array() );
		RPS_My_Account::html( self::BUYER, RPS_Api_Client::from_settings() );
		$this->assertContains( 'GET /api/v2/subscriptions?customer_id=cus_0&per_page=100', self::requests_made() );
		$this->assertSame( array( 'cus_0', 'cus_1' ), get_user_meta( self::BUYER, RPS_My_Account::CUSTOMER_META, true ) );
	}

	public function test_a_service_that_does_not_answer_shows_a_notice_not_a_white_page(): void {
		self::no_answer();
		$this->assertStringContainsString( 'cannot be shown right now', RPS_My_Account::html( self::BUYER, RPS_Api_Client::from_settings() ) );
	}

	public function test_a_missing_or_wrong_nonce_is_refused_before_the_service_is_asked(): void {
		foreach ( array( '', 'abc', wp_create_nonce( RPS_My_Account::NONCE_ACTION . 'sub_2' ) ) as $nonce ) {
			$this->assertSame( 'https://shop.example/my-account/subscriptions/', self::post( 'cancel', array( '_wpnonce' => $nonce ) ) );
		}
		$this->assertSame( array(), self::requests_made() );
		$this->assertSame( 'error', RPS_Stub_State::$notices[0][1] );
	}

	public function test_another_buyers_subscription_is_refused_and_nothing_is_changed(): void {
		self::customers_found( 'cus_1' );
		self::answer( 200, self::subscription( 'sub_9', 'cus_2' ) );
		self::post( 'cancel', array(), 'sub_9' );
		$this->assertSame( array( 'GET /api/v2/customers?email=anna%40example.nl&per_page=100', 'GET /api/v2/subscriptions/sub_9' ), self::requests_made() );
		$this->assertSame( array( 'That subscription was not found in your account.', 'error' ), RPS_Stub_State::$notices[0] );
	}

	public function test_an_action_the_account_does_not_allow_is_refused(): void {
		self::customers_found( 'cus_1' );
		self::answer( 200, self::subscription() );
		self::portal( array( 'cancel' ) );
		self::post( 'skip' );
		$this->assertNotContains( 'POST /api/v2/subscriptions/sub_1/skip', self::requests_made() );
		$this->assertSame( 'error', RPS_Stub_State::$notices[0][1] );
	}

	public function test_cancel_ends_the_subscription_after_the_paid_period(): void {
		self::customers_found( 'cus_1' );
		self::answer( 200, self::subscription() );
		self::portal( array( 'cancel' ) );
		self::answer( 200, self::subscription( 'sub_1', 'cus_1', array( 'cancel_at' => '2026-12-24' ) ) );
		self::post( 'cancel' );
		$this->assertSame( array( 'cancel_at' => '2026-12-24' ), self::body_sent_to( 'DELETE', '/api/v2/subscriptions/sub_1' ) );
		$this->assertSame( 'success', RPS_Stub_State::$notices[0][1] );
	}

	public function test_pause_takes_a_date_within_the_accounts_limit(): void {
		$late = wp_date( 'Y-m-d', time() + 31 * DAY_IN_SECONDS );
		self::customers_found( 'cus_1' );
		self::answer( 200, self::subscription() );
		self::portal( array( 'pause' ), 30 );
		self::post( 'pause', array( 'rps_resume_at' => $late ) );
		$this->assertNotContains( 'POST /api/v2/subscriptions/sub_1/pause', self::requests_made() );
		$this->assertStringContainsString( 'within 30 days', RPS_Stub_State::$notices[0][0] );

		$date = wp_date( 'Y-m-d', time() + 10 * DAY_IN_SECONDS );
		self::customers_found( 'cus_1' );
		self::answer( 200, self::subscription() );
		self::answer( 200, self::subscription( 'sub_1', 'cus_1', array( 'status' => 'paused' ) ) );
		self::post( 'pause', array( 'rps_resume_at' => $date ) );
		$this->assertSame( array( 'resume_at' => $date ), self::body_sent_to( 'POST', '/api/v2/subscriptions/sub_1/pause' ) );
	}

	public function test_resume_goes_with_pause_and_skip_is_only_for_an_active_subscription(): void {
		$paused = self::subscription( 'sub_1', 'cus_1', array( 'status' => 'paused' ) );
		$portal = array( 'allowed_actions' => array( 'pause', 'skip' ), 'max_pause_days' => 30 );
		$this->assertSame( array( 'resume' ), RPS_Subscriptions::buyer_actions( $paused, $portal ) );
		$this->assertSame( array( 'pause', 'skip' ), RPS_Subscriptions::buyer_actions( self::subscription(), $portal ) );
		$this->assertSame( array(), RPS_Subscriptions::buyer_actions( self::subscription( 'sub_1', 'cus_1', array( 'status' => 'cancelled' ) ), $portal ) );
	}

	public function test_change_of_payment_method_opens_a_portal_session_that_returns_to_the_page(): void {
		self::customers_found( 'cus_1' );
		self::answer( 200, self::subscription() );
		self::portal( array( 'change-method' ) );
		self::answer( 201, array( 'id' => 'ptk_1', 'url' => 'https://rps.example/portal/session/tok' ) );
		$this->assertSame( 'https://rps.example/portal/session/tok', self::post( 'change-method' ) );
		$this->assertSame( array( 'return_url' => 'https://shop.example/my-account/subscriptions/' ), self::body_sent_to( 'POST', '/api/v2/customers/cus_1/portal-sessions' ) );
	}

	public function test_a_refusal_of_the_service_is_a_notice(): void {
		self::customers_found( 'cus_1' );
		self::answer( 200, self::subscription() );
		self::portal( array( 'skip' ) );
		self::answer( 409, array( 'status' => 409, 'error' => 'A charge is in progress', 'code' => 'charge_in_progress' ) );
		self::post( 'skip' );
		$this->assertSame( array( 'A charge is in progress', 'error' ), RPS_Stub_State::$notices[0] );
	}

	public function test_the_menu_item_follows_orders_and_the_rewrite_rules_are_flushed_once_per_endpoint(): void {
		$items = RPS_My_Account::menu_items( array( 'dashboard' => 'Dashboard', 'orders' => 'Orders', 'customer-logout' => 'Log out' ) );
		$this->assertSame( array( 'dashboard', 'orders', 'subscriptions', 'customer-logout' ), array_keys( $items ) );
		$this->assertSame( array( 'orders' => 'orders', 'subscriptions' => 'subscriptions' ), RPS_My_Account::query_vars( array( 'orders' => 'orders' ) ) );
		RPS_My_Account::flush_when_changed();
		RPS_My_Account::flush_when_changed();
		$this->assertSame( 1, get_option( 'stub_rewrite_flushes' ) );
		RPS_My_Account::activate();
		RPS_My_Account::flush_when_changed();
		$this->assertSame( 2, get_option( 'stub_rewrite_flushes' ) );
	}

	/**
	 * With WooCommerce Subscriptions active its page keeps `subscriptions`; ours moves aside.
	 *
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	public function test_with_woocommerce_subscriptions_active_the_page_is_recurring_payments(): void {
		eval( 'final class WC_Subscriptions {}' ); // phpcs:ignore Squiz.PHP.Eval.Discouraged -- the extension's presence, in this process only.
		$this->assertSame( 'recurring-payments', RPS_My_Account::endpoint() );
		$this->assertSame( array( 'subscriptions' => 'subscriptions', 'recurring-payments' => 'recurring-payments' ), RPS_My_Account::query_vars( array( 'subscriptions' => 'subscriptions' ) ) );
		$this->assertSame( 'Recurring payments', RPS_My_Account::menu_items( array( 'orders' => 'Orders' ) )['recurring-payments'] );
		$this->assertSame( 'https://shop.example/my-account/recurring-payments/', RPS_My_Account::page_url() );
	}
}
