<?php
defined( 'ABSPATH' ) || exit;

/** The customer is told their subscription runs again. */
final class RPS_Email_Subscription_Resumed extends RPS_Email_Subscription {

	public function __construct() {
		$this->id          = 'rps_subscription_resumed';
		$this->title       = __( 'Subscription resumed', 'recurring-payments-bridge' );
		$this->description = __( 'Sent to the customer when their paused subscription is resumed.', 'recurring-payments-bridge' );
		parent::__construct();
	}

	/** @return list<string> */
	protected function message_lines(): array {
		/* translators: %s: the subscription's name */
		$lines = array( sprintf( __( 'Your subscription %s runs again.', 'recurring-payments-bridge' ), $this->name() ) );
		return array_merge( $lines, $this->next_payment_line() );
	}

	public function get_default_subject(): string {
		return __( 'Your subscription {subscription_name} runs again', 'recurring-payments-bridge' );
	}

	public function get_default_heading(): string {
		return __( 'Subscription resumed', 'recurring-payments-bridge' );
	}
}
