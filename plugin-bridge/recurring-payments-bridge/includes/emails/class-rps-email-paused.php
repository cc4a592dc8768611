<?php
defined( 'ABSPATH' ) || exit;

/** The customer is told their subscription is paused and until when. */
final class RPS_Email_Subscription_Paused extends RPS_Email_Subscription {

	public function __construct() {
		$this->id          = 'rps_subscription_paused';
		$this->title       = __( 'Subscription paused', 'recurring-payments-bridge' );
		$this->description = __( 'Sent to the customer when their subscription is paused, with the date it resumes.', 'recurring-payments-bridge' );
		parent::__construct();
	}

	protected function template_name(): string {
		return 'rps-subscription-paused';
	}

	public function get_default_subject(): string {
		return __( 'Your subscription {subscription_name} is paused', 'recurring-payments-bridge' );
	}

	public function get_default_heading(): string {
		return __( 'Subscription paused', 'recurring-payments-bridge' );
	}
}
