<?php
defined( 'ABSPATH' ) || exit;

/** The customer is told their new payment method is used. */
final class RPS_Email_Payment_Method_Changed extends RPS_Email_Subscription {

	public function __construct() {
		$this->id          = 'rps_payment_method_changed';
		$this->title       = __( 'Subscription payment method changed', 'recurring-payments-bridge' );
		$this->description = __( 'Sent to the customer when their subscriptions are charged with a new payment method.', 'recurring-payments-bridge' );
		parent::__construct();
	}

	protected function template_name(): string {
		return 'rps-payment-method-changed';
	}

	public function get_default_subject(): string {
		return __( 'Your payment method for {subscription_name} is changed', 'recurring-payments-bridge' );
	}

	public function get_default_heading(): string {
		return __( 'Payment method changed', 'recurring-payments-bridge' );
	}
}
