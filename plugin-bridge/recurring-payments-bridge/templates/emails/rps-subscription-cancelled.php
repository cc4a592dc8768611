<?php
/**
 * Subscription cancelled (HTML). A theme overrides it by copying it to
 * yourtheme/recurring-payments-bridge/emails/rps-subscription-cancelled.php.
 *
 * @var array<string, mixed> $subscription the subscription as the service answered it
 * @var array<string, mixed> $event        the service's callback
 * @var list<string>         $others       other subscriptions on the new payment method
 * @var string               $customer_name
 * @var string               $email_heading
 * @var string               $additional_content
 * @var WC_Email             $email
 */

defined( 'ABSPATH' ) || exit;

$name = (string) ( $subscription['name'] ?? '' );
$ends = RPS_Email_Subscription::date( $event['cancel_at'] ?? ( $subscription['cancel_at'] ?? null ) );
/* translators: %s: the subscription's name */
$lines = array( sprintf( __( 'Your subscription %s is cancelled.', 'recurring-payments-bridge' ), $name ) );
if ( '' !== $ends ) {
	/* translators: %s: a date */
	$lines[] = sprintf( __( 'It ends on %s: no payment is taken on or after that day.', 'recurring-payments-bridge' ), $ends );
}
/* translators: %s: the customer's first name */
$greeting = '' !== $customer_name ? sprintf( __( 'Hi %s,', 'recurring-payments-bridge' ), $customer_name ) : __( 'Hello,', 'recurring-payments-bridge' );

do_action( 'woocommerce_email_header', $email_heading, $email );
?>
<p><?php echo esc_html( $greeting ); ?></p>
<?php foreach ( $lines as $line ) : ?>
<p><?php echo esc_html( $line ); ?></p>
<?php endforeach; ?>
<?php
if ( $additional_content ) {
	echo wp_kses_post( wpautop( wptexturize( $additional_content ) ) );
}
do_action( 'woocommerce_email_footer', $email );
