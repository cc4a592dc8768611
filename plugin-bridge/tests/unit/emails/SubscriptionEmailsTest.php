<?php

require_once dirname( __DIR__ ) . '/StubTestCase.php';

/**
 * The service's subscription callback (/wc-api/rps_subscription) and the e-mails it sends through
 * WooCommerce's mailer: verified, read from the service, once per event id.
 */
final class SubscriptionEmailsTest extends StubTestCase {

	private const SUBSCRIPTION = array(
		'id'              => 'sub_coffee',
		'name'            => 'Coffee box',
		'status'          => 'active',
		'cancel_at'       => '2027-01-01',
		'resume_at'       => null,
		'next_payment_at' => null,
		'customer'        => array( 'id' => 'cst_anna', 'first_name' => 'Anna', 'last_name' => 'Bakker', 'email' => 'anna@example.nl' ),
	);

	protected function setUp(): void {
		parent::setUp();
		RPS_Stub_Mailer::reset();
		// What WooCommerce's mailer does when it starts: it runs the woocommerce_email_classes filter once.
		RPS_Stub_Mailer::$emails = RPS_Emails::email_classes( array() );
	}

	/** @param array<string, mixed> $fields */
	private static function event( string $name, array $fields = array() ): string {
		return (string) json_encode( $fields + array( 'id' => 'sub_coffee', 'event' => 'subscription.' . $name, 'event_id' => 'evt_one', 'mail' => 'store' ) );
	}

	private static function sign( string $body, ?int $at = null ): string {
		$t = (string) ( $at ?? time() );
		return 't=' . $t . ',v1=' . hash_hmac( 'sha256', $t . '.' . $body, self::SECRET );
	}

	/** @return array{0: int, 1: string} */
	private static function deliver( string $body, ?string $signature = null ): array {
		return ( new RPS_Subscription_Events( RPS_Api_Client::from_settings(), self::SECRET ) )->process( $body, $signature ?? self::sign( $body ) );
	}

	public function test_the_plugin_registers_its_five_emails_with_woocommerce_with_the_plugins_templates(): void {
		$this->assertSame(
			array( 'RPS_Email_Subscription_Cancelled', 'RPS_Email_Subscription_Paused', 'RPS_Email_Subscription_Resumed', 'RPS_Email_Subscription_Skipped', 'RPS_Email_Payment_Method_Changed' ),
			array_keys( RPS_Stub_Mailer::$emails )
		);
		foreach ( RPS_Stub_Mailer::$emails as $email ) {
			$this->assertTrue( $email->customer_email );
			$this->assertFileExists( RPS_Emails::template_base() . $email->template_html );
			$this->assertFileExists( RPS_Emails::template_base() . $email->template_plain );
		}
		$this->assertSame( 'recurring-payments-bridge', RPS_Emails::template_directory( 'woocommerce', 'emails/rps-subscription.php' ) );
		$this->assertSame( 'woocommerce', RPS_Emails::template_directory( 'woocommerce', 'emails/customer-processing-order.php' ) );
	}

	public function test_a_signed_cancelled_event_reads_the_subscription_and_mails_its_customer_once(): void {
		self::answer( 200, self::SUBSCRIPTION );
		$body = self::event( 'cancelled', array( 'cancel_at' => '2027-01-01', 'via' => 'portal' ) );
		$this->assertSame( array( 200, 'mailed' ), self::deliver( $body ) );
		$this->assertSame( array( 'GET /api/v2/subscriptions/sub_coffee' ), self::requests_made() );
		$this->assertCount( 1, RPS_Stub_Mailer::$sent );
		$mail = RPS_Stub_Mailer::$sent[0];
		$this->assertSame( 'anna@example.nl', $mail['to'] );
		$this->assertSame( 'Your subscription Coffee box is cancelled', $mail['subject'] );
		$this->assertStringContainsString( '<p>Hi Anna,</p>', $mail['message'] );
		$this->assertStringContainsString( 'It ends on 1 January 2027: no payment is taken on or after that day.', $mail['message'] );
		// The event's action runs before the mail is made, which opens and closes with WooCommerce's header and footer.
		$this->assertSame( array( 'rps_subscription_event', 'woocommerce_email_header', 'woocommerce_email_footer' ), RPS_Stub_Mailer::$actions );
	}

	public function test_the_same_event_replayed_or_retried_sends_no_second_mail_and_asks_the_service_nothing(): void {
		self::answer( 200, self::SUBSCRIPTION );
		$body = self::event( 'cancelled' );
		self::deliver( $body );
		$this->assertSame( array( 200, 'already handled' ), self::deliver( $body ) ); // replayed as it was
		$this->assertSame( array( 200, 'already handled' ), self::deliver( $body, self::sign( $body, time() + 60 ) ) ); // the service's retry, signed anew
		$this->assertCount( 1, RPS_Stub_Mailer::$sent );
		$this->assertCount( 1, RPS_Stub_State::$requests );
	}

	public function test_an_unsigned_forged_or_stale_event_sends_nothing_and_reads_nothing(): void {
		$body = self::event( 'cancelled' );
		$this->assertSame( array( 401, 'bad signature' ), self::deliver( $body, '' ) );
		$this->assertSame( array( 401, 'bad signature' ), self::deliver( str_replace( 'evt_one', 'evt_two', $body ), self::sign( $body ) ) );
		$this->assertSame( array( 401, 'bad signature' ), self::deliver( $body, self::sign( $body, time() - 3600 ) ) );
		$this->assertSame( array( 401, 'bad signature' ), ( new RPS_Subscription_Events( RPS_Api_Client::from_settings(), '' ) )->process( $body, self::sign( $body ) ) );
		$this->assertSame( array(), RPS_Stub_State::$requests );
		$this->assertSame( array(), RPS_Stub_Mailer::$sent );
	}

	public function test_when_the_service_mails_the_plugin_sends_nothing_but_still_handles_the_event_once(): void {
		self::answer( 200, self::SUBSCRIPTION );
		$this->assertSame( array( 200, 'the service mails' ), self::deliver( self::event( 'paused', array( 'mail' => 'service' ) ) ) );
		$this->assertSame( array(), RPS_Stub_Mailer::$sent );
		$this->assertContains( 'rps_subscription_event', RPS_Stub_Mailer::$actions );
	}

	public function test_when_the_service_cannot_be_read_the_event_is_answered_503_and_its_retry_mails(): void {
		self::answer( 503, array( 'status' => 503, 'error' => 'Service Unavailable' ) );
		$body = self::event( 'paused', array( 'resume_at' => '2027-01-15' ) );
		$this->assertSame( 503, self::deliver( $body )[0] );
		$this->assertSame( array(), RPS_Stub_Mailer::$sent );
		self::answer( 200, array( 'resume_at' => '2027-01-15', 'status' => 'paused' ) + self::SUBSCRIPTION );
		$this->assertSame( array( 200, 'mailed' ), self::deliver( $body ) );
		$this->assertSame( 'Your subscription Coffee box is paused', RPS_Stub_Mailer::$sent[0]['subject'] );
		$this->assertStringContainsString( 'Your subscription Coffee box is paused until 15 January 2027; no payment is taken until then.', RPS_Stub_Mailer::$sent[0]['message'] );
	}

	public function test_a_change_of_payment_method_names_every_subscription_it_moved_in_the_plain_text_mail_the_shop_owner_chose(): void {
		update_option( 'woocommerce_rps_payment_method_changed_settings', array( 'email_type' => 'plain' ) );
		RPS_Stub_Mailer::$emails = RPS_Emails::email_classes( array() );
		self::answer( 200, self::SUBSCRIPTION );
		self::answer( 200, array( 'id' => 'sub_tea', 'name' => 'Tea box' ) );
		$body = self::event( 'method_changed', array( 'subscription_ids' => array( 'sub_coffee', 'sub_tea' ) ) );
		$this->assertSame( array( 200, 'mailed' ), self::deliver( $body ) );
		$mail = RPS_Stub_Mailer::$sent[0];
		$this->assertStringStartsWith( "= Payment method changed =\n\nHi Anna,\n\n", $mail['message'] );
		$this->assertStringContainsString( "Your subscription Coffee box is now paid with your new payment method.\n\nSo are: Tea box.", $mail['message'] );
		$this->assertStringNotContainsString( '<p>', $mail['message'] );
	}

	public function test_an_email_the_shop_owner_switched_off_is_not_sent(): void {
		update_option( 'woocommerce_rps_subscription_skipped_settings', array( 'enabled' => 'no' ) );
		RPS_Stub_Mailer::$emails = RPS_Emails::email_classes( array() );
		self::answer( 200, self::SUBSCRIPTION );
		$this->assertSame( array( 200, 'not mailed' ), self::deliver( self::event( 'skipped', array( 'skipped_date' => '2026-12-01' ) ) ) );
		$this->assertSame( array(), RPS_Stub_Mailer::$sent );
	}

	public function test_a_theme_copy_of_the_layout_in_its_recurring_payments_bridge_folder_is_used_and_knows_which_email_it_is(): void {
		$theme = sys_get_temp_dir() . '/rps-theme-' . getmypid();
		@mkdir( $theme . '/recurring-payments-bridge/emails', 0777, true );
		file_put_contents( $theme . '/recurring-payments-bridge/emails/rps-subscription.php', '<?php echo esc_html( $email->id . ": " . implode( " ", $lines ) );' );
		RPS_Stub_Mailer::$theme_dir = $theme;
		self::answer( 200, self::SUBSCRIPTION );
		self::deliver( self::event( 'resumed' ) );
		$this->assertSame( 'rps_subscription_resumed: Your subscription Coffee box runs again.', RPS_Stub_Mailer::$sent[0]['message'] );
		unlink( $theme . '/recurring-payments-bridge/emails/rps-subscription.php' );
	}

	public function test_a_filter_changes_what_one_email_says(): void {
		add_filter(
			'rps_subscription_email_lines',
			static fn( array $lines, string $id ) => 'rps_subscription_cancelled' === $id ? array( 'We are sorry to see you go.' ) : $lines,
			10,
			2
		);
		self::answer( 200, self::SUBSCRIPTION );
		self::deliver( self::event( 'cancelled', array( 'cancel_at' => '2027-01-01' ) ) );
		$this->assertStringContainsString( '<p>We are sorry to see you go.</p>', RPS_Stub_Mailer::$sent[0]['message'] );
		$this->assertStringNotContainsString( 'is cancelled', RPS_Stub_Mailer::$sent[0]['message'] );
	}

	public function test_an_event_that_is_not_a_subscription_event_is_refused(): void {
		$this->assertSame( 400, self::deliver( self::event( 'charged' ) )[0] );
		$this->assertSame( 400, self::deliver( (string) json_encode( array( 'id' => 'sub_coffee', 'event' => 'subscription.cancelled' ) ) )[0] );
		$this->assertSame( array(), RPS_Stub_State::$requests );
	}

	public function test_handled_event_ids_are_pruned_daily_after_30_days_and_all_of_them_when_the_plugin_is_deleted(): void {
		$GLOBALS['rps_stub_cron'] = array();
		RPS_Subscription_Events::register();
		RPS_Subscription_Events::register();
		$this->assertSame( array( 'rps_prune_handled_events' ), array_keys( $GLOBALS['rps_stub_cron'] ), 'scheduled once' );
		$this->assertSame( 'daily', $GLOBALS['rps_stub_cron']['rps_prune_handled_events'][1] );

		$GLOBALS['wpdb'] = $wpdb = new RPS_Stub_Wpdb();
		$wpdb->affected  = 3;
		$now             = 1_790_000_000;
		$this->assertSame( 3, RPS_Subscription_Events::prune( $now ) );
		RPS_Subscription_Events::prune( null, true );
		unset( $GLOBALS['wpdb'] );
		$this->assertSame(
			array(
				"DELETE FROM wp_options WHERE option_name LIKE 'rps\\_event\\_%' AND CAST(option_value AS UNSIGNED) < " . ( $now - 30 * 86400 ),
				"DELETE FROM wp_options WHERE option_name LIKE 'rps\\_event\\_%' AND CAST(option_value AS UNSIGNED) < " . PHP_INT_MAX,
			),
			$wpdb->queries
		);
	}

	public function test_connecting_the_store_gives_the_service_the_callback_address(): void {
		self::answer( 200, array( 'status' => 'connected', 'url' => 'https://shop.example', 'event_signing_secret' => self::SECRET ) );
		$GLOBALS['wpdb'] = new RPS_Stub_Wpdb();
		( new RPS_Store_Connector( RPS_Api_Client::from_settings() ) )->connect();
		unset( $GLOBALS['wpdb'] );
		$this->assertSame( 'https://shop.example/?wc-api=rps_subscription', self::body_sent_to( 'POST', '/api/v2/shop' )['callback_url'] );
	}
}
