<?php
defined( 'ABSPATH' ) || exit;

/** The customer is told their cancellation is done and when the subscription ends. */
final class RPS_Email_Subscription_Cancelled extends RPS_Email_Subscription {

	public function __construct() {
		$this->id          = 'rps_subscription_cancelled';
		$this->title       = __( 'Subscription cancelled', 'recurring-payments-bridge' );
		$this->description = __( 'Sent to the customer when their subscription is cancelled, with the date it ends.', 'recurring-payments-bridge' );
		parent::__construct();
	}

	protected function template_name(): string {
		return 'rps-subscription-cancelled';
	}

	public function get_default_subject(): string {
		return __( 'Your subscription {subscription_name} is cancelled', 'recurring-payments-bridge' );
	}

	public function get_default_heading(): string {
		return __( 'Subscription cancelled', 'recurring-payments-bridge' );
	}
}
