<?php
defined( 'ABSPATH' ) || exit;

/** The customer is told which payment is skipped. */
final class RPS_Email_Subscription_Skipped extends RPS_Email_Subscription {

	public function __construct() {
		$this->id          = 'rps_subscription_skipped';
		$this->title       = __( 'Subscription payment skipped', 'recurring-payments-bridge' );
		$this->description = __( 'Sent to the customer when the next payment of their subscription is skipped.', 'recurring-payments-bridge' );
		parent::__construct();
	}

	protected function template_name(): string {
		return 'rps-subscription-skipped';
	}

	public function get_default_subject(): string {
		return __( 'A payment of {subscription_name} is skipped', 'recurring-payments-bridge' );
	}

	public function get_default_heading(): string {
		return __( 'Payment skipped', 'recurring-payments-bridge' );
	}
}
