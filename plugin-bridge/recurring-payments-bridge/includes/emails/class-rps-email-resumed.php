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

	protected function template_name(): string {
		return 'rps-subscription-resumed';
	}

	public function get_default_subject(): string {
		return __( 'Your subscription {subscription_name} runs again', 'recurring-payments-bridge' );
	}

	public function get_default_heading(): string {
		return __( 'Subscription resumed', 'recurring-payments-bridge' );
	}
}
