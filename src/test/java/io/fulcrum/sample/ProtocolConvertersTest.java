package io.fulcrum.sample;

/** Expected values and messages come from haproxy 2.6.12, unless a comment says otherwise. */
class ProtocolConvertersTest extends ConverterTableTest {

    @Override
    String results() {
        return """
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC4wATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjAB),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC4xATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjEB),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC4yATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjIB),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC4zATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjMB),b64dec,fix_is_valid => bool:1
            str(OD1GSVhULjEuMQE5PTY1ATM1PUEBNDk9U0VSVkVSATU2PUNMSUVOVAEzND0xNzcBNTI9MjAwOTAxMDctMTg6MTU6MTYBOTg9MAExMDg9MzABMTA9MTQyAQ==),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNS4wATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjEB),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC41ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjUB),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9NQEzNT1BATQ5PVNFUlZFUgE1Nj1DTElFTlQBMzQ9MTc3ATUyPTIwMDkwMTA3LTE4OjE1OjE2ATk4PTABMTA4PTMwATEwPTAxMAE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wMDEB),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0xMgE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wMDEyAQ==),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9MTABNDk9WAEzNT1BATEwPTIyNwE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9NQEzNT1BATEwPTE4MAE=),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC40ATk9MAExMD0yMDAB),b64dec,fix_is_valid => none
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQ=),b64dec,fix_is_valid => none
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQBZ2FyYmFnZQ==),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC40ATE9eAE5PTY1ATM1PUEBNDk9U0VSVkVSATU2PUNMSUVOVAEzND0xNzcBNTI9MjAwOTAxMDctMTg6MTU6MTYBOTg9MAExMDg9MzABMTA9MDM5AQ==),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9OAEzNT1BAT14ATEwPTEwOQE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9OQEzNT1BATQ5PQExMD0wOTkB),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC40ATk9MTABMzU9QQFhOT14ATEwPTA0OAE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9MTIBMzU9QQE0OT14PXkBMTA9MTg3AQ==),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC40fDk9NjV8MzU9QXw0OT1TRVJWRVJ8NTY9Q0xJRU5UfDM0PTE3N3w1Mj0yMDA5MDEwNy0xODoxNToxNnw5OD0wfDEwOD0zMHwxMD0wNjR8),b64dec,fix_is_valid => none
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(35) => bin:41
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(MsgType) => bin:41
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(49) => bin:534552564552
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(SenderCompID) => bin:534552564552
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(56) => bin:434C49454E54
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(TargetCompID) => bin:434C49454E54
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(8) => bin:4649582E342E34
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(BeginString) => bin:4649582E342E34
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(9) => bin:3635
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(BodyLength) => bin:3635
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(10) => bin:303634
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(CheckSum) => bin:303634
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(108) => bin:3330
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(999) => none
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(52) => bin:32303039303130372D31383A31353A3136
            str(OD1GSVguNC40ATk9NjUBMzU9QQE0OT1TRVJWRVIBNTY9Q0xJRU5UATM0PTE3NwE1Mj0yMDA5MDEwNy0xODoxNToxNgE5OD0wATEwOD0zMAExMD0wNjQB),b64dec,fix_tag_value(msgtype) => bin:41
            str(MzU9RAE=),b64dec,fix_tag_value(35) => bin:44
            str(MzU9RA==),b64dec,fix_tag_value(35) => none
            str(OD1GSVguNC40ATk9OQEzNT1BATQ5PQExMD0wOTkB),b64dec,fix_tag_value(49) => none
            str(OD14ATQ5PWEBNDk9YgE=),b64dec,fix_tag_value(49) => bin:61
            str(eDk9MQE5PTIB),b64dec,fix_tag_value(9) => none
            str(8=x),fix_tag_value(35) => none
            str(OD1GSVguNC40ATk9MjAwATM1PUEBNDk9WAExMD0wMjAB),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9MTEBMzU9QQE0OT1YATEwPTIyOAE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9MTABMzU9QQE0OT1YAQ==),b64dec,fix_is_valid => none
            str(OD1GSVguNC40ATk9MTABMzU9QQE0OT1YATEwPWFiYwE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9NAEzNT0BMTA9MTE0AQ==),b64dec,fix_is_valid => none
            str(OD1GSVguNC40ATk9NgEzNT1BQgExMD0yNDcB),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNAE5PTUBMzU9QQExMD0wODIB),b64dec,fix_is_valid => none
            str(OD1GSVguNC40MAE5PTUBMzU9QQExMD0yMjgB),b64dec,fix_is_valid => bool:0
            str(RklYLjQuNAE5PTUBMzU9QQExMD0xODAB),b64dec,fix_is_valid => none
            str(OD1maXguNC40ATk9NQEzNT1BATEwPTE4MAE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9eAEzNT1BATEwPTE4MAE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9LTUBMzU9QQExMD0xODAB),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9NQEzNT1BATEwPSAxODA=),b64dec,fix_is_valid => none
            str(OD1GSVguNC40ATk9MTcBMzU9QQExMD0wMDABNDk9WAExMD0wMjUB),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9NQEzNT1BATEwPTE4MAE0OT1YAQ==),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC40ATk9MTEBMzU9QQEwNDk9WAExMD0wMjAB),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC40ATk9NQEzNT1BAQ==),b64dec,fix_is_valid => none
            str(OD1GSVguNC40ATk9MTEBMzU9ATQ5PVhZWgExMD0wODYB),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC40ATk9MTMBMDM1PUEBNDk9WFlaATEwPTIwMQE=),b64dec,fix_is_valid => bool:1
            str(OD1GSVguNC40ATk9MTIBMzU9QQE0OT1YWVoBMTA9MTUyAQ==),b64dec,fix_is_valid => bool:1
            str(OD0BOT0xMgEzNT1BATQ5PVhZWgExMD0yMzcB),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9MTABMzU9QQE9WFlaATEwPTA0MQE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNC40ATk9OAEzNT1BATQ5ATEwPTAzNwE=),b64dec,fix_is_valid => bool:0
            str(OD1GSVguNAE5PTE0ATM1PUEBNDk9WFlaV1YBMTA9MjI5AQ==),b64dec,fix_is_valid => bool:0
            str(MzU9QQE0OQE1Nj1RAQ==),b64dec,fix_tag_value(56) => none
            str(MzU9QQE9eAE1Nj1RAQ==),b64dec,fix_tag_value(56) => none
            str(MzU9QQEwNTY9UQE=),b64dec,fix_tag_value(56) => bin:51
            str(NTY9UQE=),b64dec,fix_tag_value(0056) => bin:51
            str(NTY9UT1SAQ==),b64dec,fix_tag_value(56) => bin:513D52
            str(EBMABE1RVFQEAgA8AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:1
            str(EBMABE1RVFQEAgA8AAdjbGllbnQx),b64dec,mqtt_field_value(connect,flags) => bin:32
            str(EBMABE1RVFQEAgA8AAdjbGllbnQx),b64dec,mqtt_field_value(connect,protocol_name) => bin:4D515454
            str(EBMABE1RVFQEAgA8AAdjbGllbnQx),b64dec,mqtt_field_value(connect,protocol_version) => bin:34
            str(EBMABE1RVFQEAgA8AAdjbGllbnQx),b64dec,mqtt_field_value(connect,client_identifier) => bin:636C69656E7431
            str(EBMABE1RVFQEAgA8AAdjbGllbnQx),b64dec,mqtt_field_value(connect,keepalive) => bin:3630
            str(EBMABE1RVFQEAgA8AAdjbGllbnQx),b64dec,mqtt_field_value(connect,username) => none
            str(EBMABE1RVFQEAgA8AAdjbGllbnQx),b64dec,mqtt_field_value(connect,will_topic) => none
            str(EBUABk1RSXNkcAMCADwAB2NsaWVudDE=),b64dec,mqtt_is_valid => bool:1
            str(EBUABk1RSXNkcAMCADwAB2NsaWVudDE=),b64dec,mqtt_field_value(connect,protocol_name) => bin:4D5149736470
            str(EBUABk1RSXNkcAMCADwAB2NsaWVudDE=),b64dec,mqtt_field_value(connect,protocol_version) => bin:33
            str(EBUABk1RSXNkcAMCADwAB2NsaWVudDE=),b64dec,mqtt_field_value(connect,client_identifier) => bin:636C69656E7431
            str(ECgABE1RVFQEzgA8AAdjbGllbnQxAAJ3dAACd3AAA2JvYgAGc2VjcmV0),b64dec,mqtt_is_valid => bool:1
            str(ECgABE1RVFQEzgA8AAdjbGllbnQxAAJ3dAACd3AAA2JvYgAGc2VjcmV0),b64dec,mqtt_field_value(connect,flags) => bin:323036
            str(ECgABE1RVFQEzgA8AAdjbGllbnQxAAJ3dAACd3AAA2JvYgAGc2VjcmV0),b64dec,mqtt_field_value(connect,will_topic) => bin:7774
            str(ECgABE1RVFQEzgA8AAdjbGllbnQxAAJ3dAACd3AAA2JvYgAGc2VjcmV0),b64dec,mqtt_field_value(connect,will_payload) => bin:7770
            str(ECgABE1RVFQEzgA8AAdjbGllbnQxAAJ3dAACd3AAA2JvYgAGc2VjcmV0),b64dec,mqtt_field_value(connect,username) => bin:626F62
            str(ECgABE1RVFQEzgA8AAdjbGllbnQxAAJ3dAACd3AAA2JvYgAGc2VjcmV0),b64dec,mqtt_field_value(connect,password) => bin:736563726574
            str(ECgABE1RVFQEzgA8AAdjbGllbnQxAAJ3dAACd3AAA2JvYgAGc2VjcmV0),b64dec,mqtt_field_value(connect,client_identifier) => bin:636C69656E7431
            str(ECkABE1RVFQFAgA8FREAAA4QIQAKFQAFU0NSQU0WAAIBAgAHY2xpZW50MQ==),b64dec,mqtt_is_valid => bool:1
            str(ECkABE1RVFQFAgA8FREAAA4QIQAKFQAFU0NSQU0WAAIBAgAHY2xpZW50MQ==),b64dec,mqtt_field_value(connect,protocol_version) => bin:35
            str(ECkABE1RVFQFAgA8FREAAA4QIQAKFQAFU0NSQU0WAAIBAgAHY2xpZW50MQ==),b64dec,mqtt_field_value(connect,17) => bin:33363030
            str(ECkABE1RVFQFAgA8FREAAA4QIQAKFQAFU0NSQU0WAAIBAgAHY2xpZW50MQ==),b64dec,mqtt_field_value(connect,33) => bin:3130
            str(ECkABE1RVFQFAgA8FREAAA4QIQAKFQAFU0NSQU0WAAIBAgAHY2xpZW50MQ==),b64dec,mqtt_field_value(connect,21) => bin:534352414D
            str(ECkABE1RVFQFAgA8FREAAA4QIQAKFQAFU0NSQU0WAAIBAgAHY2xpZW50MQ==),b64dec,mqtt_field_value(connect,22) => bin:0102
            str(ECkABE1RVFQFAgA8FREAAA4QIQAKFQAFU0NSQU0WAAIBAgAHY2xpZW50MQ==),b64dec,mqtt_field_value(connect,39) => bin:30
            str(ECkABE1RVFQFAgA8FREAAA4QIQAKFQAFU0NSQU0WAAIBAgAHY2xpZW50MQ==),b64dec,mqtt_field_value(connect,client_identifier) => bin:636C69656E7431
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_is_valid => bool:1
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_field_value(connect,will_topic) => bin:7774
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_field_value(connect,will_payload) => bin:7770
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_field_value(connect,username) => bin:75
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_field_value(connect,password) => bin:70
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_field_value(connect,24) => bin:37
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_field_value(connect,1) => bin:31
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_field_value(connect,3) => bin:746578742F706C61696E
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_field_value(connect,8) => bin:72657370
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_field_value(connect,9) => bin:6364
            str(EEMABE1RVFQF1gA8AAAHY2xpZW50MSAYAAAABwEBAwAKdGV4dC9wbGFpbggABHJlc3AJAAJjZAACd3QAAndwAAF1AAFw),b64dec,mqtt_field_value(connect,flags) => bin:323134
            str(IAIBAA==),b64dec,mqtt_is_valid => bool:1
            str(IAIBAA==),b64dec,mqtt_field_value(connack,flags) => bin:31
            str(IAIBAA==),b64dec,mqtt_field_value(connack,reason_code) => bin:30
            str(IAIBAA==),b64dec,mqtt_field_value(connack,protocol_version) => bin:34
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_is_valid => bool:1
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,flags) => bin:30
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,reason_code) => bin:313334
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,protocol_version) => bin:35
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,17) => bin:3630
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,18) => bin:61737369676E6564
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,19) => bin:3330
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,36) => bin:31
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,37) => bin:30
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,39) => bin:31303234
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,31) => bin:776879
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,40) => bin:31
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,41) => bin:30
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,42) => bin:31
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,26) => bin:7269
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,28) => bin:7372
            str(IDUAhjIRAAAAPBIACGFzc2lnbmVkEwAeJAElACcAAAQAHwADd2h5KAEpACoBGgACcmkcAAJzcg==),b64dec,mqtt_field_value(connack,34) => bin:30
            str(EBMABE1RVFQEAgA8AAdjbGll),b64dec,mqtt_is_valid => none
            str(EBMABE1RVFQEAgA8AAdjbGllbnQxAAE=),b64dec,mqtt_is_valid => bool:1
            str(EBM=),b64dec,mqtt_is_valid => none
            str(EA==),b64dec,mqtt_is_valid => none
            str(),b64dec,mqtt_is_valid => none
            str(EBMABE1RVFgEAgA8AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(EBMABE1RVFQGAgA8AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(EBMABE1RVFQDAgA8AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:1
            str(EBUABk1RSXNkcAQCADwAB2NsaWVudDE=),b64dec,mqtt_is_valid => bool:1
            str(EBMABE1RVFQEAwA8AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(EBMABE1RVFQEHgA8AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(EBMABE1RVFQECgA8AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:1
            str(EBMABE1RVFQEIgA8AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:1
            str(EBYABE1RVFQEQgA8AAdjbGllbnQxAAF4),b64dec,mqtt_is_valid => bool:1
            str(EBcABE1RVFQFQgA8AAAHY2xpZW50MQABeA==),b64dec,mqtt_is_valid => bool:1
            str(EBMABE1RVFQEggA8AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(ERMABE1RVFQEAgA8AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(EAwABE1RVFQEAgA8AAA=),b64dec,mqtt_is_valid => bool:1
            str(EAwABE1RVFQEAAA8AAA=),b64dec,mqtt_is_valid => bool:1
            str(MAwABXRvcGljaGVsbG8=),b64dec,mqtt_is_valid => bool:0
            str(EBYABE1RVFQFAgA8AgUAAAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(EBoABE1RVFQFAgA8BiEAASEAAgAHY2xpZW50MQ==),b64dec,mqtt_is_valid => bool:0
            str(EBYABE1RVFQFAgA8AiEAAAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(EBYABE1RVFQFAgA8AiQBAAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(IAICAA==),b64dec,mqtt_is_valid => bool:0
            str(IAIAAAA=),b64dec,mqtt_is_valid => bool:0
            str(IAIABg==),b64dec,mqtt_is_valid => bool:1
            str(IAIABQ==),b64dec,mqtt_is_valid => bool:1
            str(IAMAAAA=),b64dec,mqtt_is_valid => bool:1
            str(IAMAAAA=),b64dec,mqtt_is_valid => bool:1
            str(IgIAAA==),b64dec,mqtt_is_valid => bool:0
            str(EH8ABE1RVFQEAgA8AAdjbGllbnQx),b64dec,mqtt_is_valid => none
            str(EP////8B),b64dec,mqtt_is_valid => bool:0
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANib2I=),b64dec,mqtt_field_value(1,username) => bin:626F62
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANib2I=),b64dec,mqtt_field_value(CONNECT,username) => bin:626F62
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANib2I=),b64dec,mqtt_field_value(Connect,USERNAME) => bin:626F62
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANib2I=),b64dec,mqtt_field_value(connack,flags) => none
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANib2I=),b64dec,mqtt_field_value(2,flags) => none
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANib2I=),b64dec,mqtt_field_value(connect,17) => none
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANib2I=),b64dec,mqtt_field_value(connect,password) => none
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANib2I=),b64dec,mqtt_field_value(connect,will_payload) => none
            str(EBkABE1RVFQFAgA8BREAAA4QAAdjbGllbnQx),b64dec,mqtt_field_value(connect,33) => bin:30
            str(EBkABE1RVFQFAgA8BREAAA4QAAdjbGllbnQx),b64dec,mqtt_field_value(connect,39) => bin:30
            str(EBkABE1RVFQFAgA8BREAAA4QAAdjbGllbnQx),b64dec,mqtt_field_value(connect,34) => bin:30
            str(EBkABE1RVFQFAgA8BREAAA4QAAdjbGllbnQx),b64dec,mqtt_field_value(connect,21) => none
            str(EBkABE1RVFQFAgA8BREAAA4QAAdjbGllbnQx),b64dec,mqtt_field_value(connect,22) => none
            str(EBkABE1RVFQFAgA8BREAAA4QAAdjbGllbnQx),b64dec,mqtt_field_value(connect,25) => bin:30
            str(EBkABE1RVFQFAgA8BREAAA4QAAdjbGllbnQx),b64dec,mqtt_field_value(connect,23) => bin:30
            str(EBkABE1RVFQFAgA8BREAAA4QAAdjbGllbnQx),b64dec,mqtt_field_value(connect,2) => none
            str(EBkABE1RVFQFAgA8BREAAA4QAAdjbGllbnQx),b64dec,mqtt_field_value(connect,3) => none
            str(EBkABE1RVFQFAgA8BREAAA4QAAdjbGllbnQx),b64dec,mqtt_field_value(connect,24) => none
            str(IAgAAAURAAAAPA==),b64dec,mqtt_field_value(connack,18) => none
            str(IAgAAAURAAAAPA==),b64dec,mqtt_field_value(connack,31) => none
            str(IAgAAAURAAAAPA==),b64dec,mqtt_field_value(connack,36) => bin:30
            str(IAgAAAURAAAAPA==),b64dec,mqtt_field_value(connack,37) => bin:30
            str(IAgAAAURAAAAPA==),b64dec,mqtt_field_value(connack,19) => bin:30
            str(IAgAAAURAAAAPA==),b64dec,mqtt_field_value(connack,22) => none
            str(IAIAAA==),b64dec,mqtt_field_value(connack,17) => none
            str(EBMABE1RVFQEAgAAAAdjbGllbnQx),b64dec,mqtt_field_value(connect,keepalive) => bin:30
            str(EBMABE1RVFQEAv//AAdjbGllbnQx),b64dec,mqtt_field_value(connect,keepalive) => bin:3635353335
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANi),b64dec,mqtt_field_value(connect,username) => none
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANi),b64dec,mqtt_field_value(connect,client_identifier) => none
            str(EBgABE1RVFQEggA8AAdjbGllbnQxAANib2I=),b64dec,mqtt_field_value(connect,client_identifier) => bin:636C69656E7431
            str(EBMABE1RVFQEAwA8AAdjbGllbnQx),b64dec,mqtt_field_value(connect,client_identifier) => none
            str(abc),mqtt_field_value(connect,client_identifier) => none
            str(EBUABE1RVFQEAgA8AAdjbGllbnQxAAA=),b64dec,mqtt_is_valid => bool:0
            str(EA4ABE1RVFQEggA8AAAAAA==),b64dec,mqtt_is_valid => bool:1
            str(EA4ABE1RVFQEggA8AAAAAA==),b64dec,mqtt_field_value(connect,client_identifier) => none
            str(EA4ABE1RVFQEggA8AAAAAA==),b64dec,mqtt_field_value(connect,username) => none
            str(EB0ABE1RVFQFBgA8AAAHY2xpZW50MQAAAnd0AAJ3cA==),b64dec,mqtt_field_value(connect,1) => bin:30
            str(EB0ABE1RVFQFBgA8AAAHY2xpZW50MQAAAnd0AAJ3cA==),b64dec,mqtt_field_value(connect,24) => bin:30
            str(EB0ABE1RVFQFBgA8AAAHY2xpZW50MQAAAnd0AAJ3cA==),b64dec,mqtt_field_value(connect,2) => bin:30
            str(EB0ABE1RVFQFBgA8AAAHY2xpZW50MQAAAnd0AAJ3cA==),b64dec,mqtt_field_value(connect,3) => none
            str(EB0ABE1RVFQFBgA8AAAHY2xpZW50MQAAAnd0AAJ3cA==),b64dec,mqtt_field_value(connect,will_payload) => bin:7770
            str(EBkABE1RVFQFBgA8AAAHY2xpZW50MQAAAAAA),b64dec,mqtt_field_value(connect,will_topic) => none
            str(EBkABE1RVFQFBgA8AAAHY2xpZW50MQAAAAAA),b64dec,mqtt_field_value(connect,will_payload) => none
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,17) => bin:30
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,33) => bin:30
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,36) => bin:30
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,37) => bin:30
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,39) => bin:30
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,40) => bin:30
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,41) => bin:30
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,42) => bin:30
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,19) => bin:30
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,34) => bin:30
            str(IAMAAAA=),b64dec,mqtt_field_value(connack,protocol_version) => bin:35
            str(IAIAAA==),b64dec,mqtt_field_value(connack,36) => none
            str(EBUABk1RSXNkcAMCADwAB2NsaWVudDE=),b64dec,mqtt_field_value(connect,33) => none
            str(EBsABE1RVFQFAgA8ByYAAWsAAXYAB2NsaWVudDE=),b64dec,mqtt_field_value(connect,38) => none
            str(ECQABE1RVFQFAgA8ECYAAWsAAXYmAAJrMgACdjIAB2NsaWVudDE=),b64dec,mqtt_is_valid => bool:1
            str(EBYABE1RVFQFAgA8AhkCAAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(EBYABE1RVFQFAgA8AhcBAAdjbGllbnQx),b64dec,mqtt_is_valid => bool:1
            str(EBgABE1RVFQFAgA8BBkBFwAAB2NsaWVudDE=),b64dec,mqtt_field_value(connect,25) => bin:31
            str(EBgABE1RVFQFAgA8BBkBFwAAB2NsaWVudDE=),b64dec,mqtt_field_value(connect,23) => bin:30
            str(EBcABE1RVFQFAgA8AyEAAAAHY2xpZW50MQ==),b64dec,mqtt_is_valid => bool:0
            str(EBkABE1RVFQFAgA8BScAAAAAAAdjbGllbnQx),b64dec,mqtt_is_valid => bool:0
            str(EBkABE1RVFQFAgA8BRH/////AAdjbGllbnQx),b64dec,mqtt_is_valid => bool:1
            str(EBkABE1RVFQFAgA8BRH/////AAdjbGllbnQx),b64dec,mqtt_field_value(connect,17) => bin:34323934393637323935
            str(EB0ABE1RVFQFBgA8AAAHY2xpZW50MQIBAgABdAABcA==),b64dec,mqtt_is_valid => bool:0
            str(ECAABE1RVFQFBgA8AAAHY2xpZW50MQURAAAAAQABdAABcA==),b64dec,mqtt_is_valid => bool:0
            str(EBMABE1RVFQEQgA8AAdjbGllbnQxAAJwdw==),b64dec,mqtt_is_valid => bool:0
            str(EBMABE1RVFQEQgA8AAdjbGllbnQxAAJwdw==),b64dec,mqtt_field_value(connect,password) => none
            str(EAkABE1RVFQEAgA=),b64dec,mqtt_is_valid => bool:0
            str(ECYABk1RSXNkcAMCADwAGHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eA==),b64dec,mqtt_is_valid => bool:1
            str(ECwABk1RSXNkcAMCADwAHnh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eA==),b64dec,mqtt_is_valid => bool:1
            str(ECoABE1RVFQEAgA8AB54eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHg=),b64dec,mqtt_is_valid => bool:1
            str(EAwABE1RVFQEAAA8AAA=),b64dec,mqtt_is_valid => bool:1
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(48.59.1,int32) => sint:407838351
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(48.59.1,int32) => sint:407838351
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(48.59.2,int32) => sint:-746143763
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(48.59.2,int32) => sint:-746143763
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(49.59.1,int32) => sint:5
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(49.59.1,int32) => sint:5
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(49.59.2,int32) => sint:6
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(49.59.2,int32) => sint:6
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(48.59) => bin:088FBDBCC20110EDFF9A9CFDFFFFFFFF01
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(48.59) => bin:088FBDBCC20110EDFF9A9CFDFFFFFFFF01
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(48) => bin:DA0311088FBDBCC20110EDFF9A9CFDFFFFFFFF01
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(48) => bin:DA0311088FBDBCC20110EDFF9A9CFDFFFFFFFF01
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(49.59.2,int64) => sint:6
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(49.59.2,int64) => sint:6
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(49.59.2,uint32) => sint:6
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(49.59.2,uint32) => sint:6
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(48.59.2,sint32) => sint:-9223372036481703927
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(48.59.2,sint32) => sint:-9223372036481703927
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(48.59.2,uint64) => sint:-746143763
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(48.59.2,uint64) => sint:-746143763
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(50) => none
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(50) => none
            str(AAAAACGCAxTaAxEIj728wgEQ7f+anP3/////AYoDB9oDBAgFEAY=),b64dec,ungrpc(48.58) => none
            str(ggMU2gMRCI+9vMIBEO3/mpz9/////wGKAwfaAwQIBRAG),b64dec,protobuf(48.58) => none
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(1,int32) => sint:150
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(1,uint32) => sint:150
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(1,sint32) => sint:75
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(1,int64) => sint:150
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(1) => bin:9601
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(2,int32) => sint:-1
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(2,int64) => sint:-1
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(2,uint64) => sint:-1
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(2,sint64) => sint:-9223372036854775808
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(2,uint32) => sint:-1
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(3,sint32) => sint:-2
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(3,sint64) => sint:-2
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(4,bool) => sint:1
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(3,bool) => sint:3
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(3,enum) => sint:3
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(5,double) => sint:1
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(5,fixed64) => sint:4609434218613702656
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(5,sfixed64) => sint:4609434218613702656
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(5) => bin:000000000000F83F
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(6,float) => sint:4294967294
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(6,fixed32) => sint:3222274048
            # a double or float that does not fit: the C casts as x86-64 does them (2^63 for NaN; a float to uint32_t
            # through a 64-bit conversion, kept its low half)
            bin(09003d9160e458e143),protobuf(1,double) => sint:-8446744073709551616
            bin(09000000000000e043),protobuf(1,double) => sint:-9223372036854775808
            bin(09ea8ca039593e2946),protobuf(1,double) => sint:0
            bin(09ea8ca039593e29c6),protobuf(1,double) => sint:-9223372036854775808
            bin(09000000000000f07f),protobuf(1,double) => sint:0
            bin(09ffffffffffffffff),protobuf(1,double) => sint:-9223372036854775808
            bin(0d0000c0bf),protobuf(1,float) => sint:4294967295
            bin(0d5ed0324f),protobuf(1,float) => sint:3000000000
            bin(0df902954f),protobuf(1,float) => sint:705032704
            bin(0dec78ad60),protobuf(1,float) => sint:0
            bin(0dffffffff),protobuf(1,float) => sint:0
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(6,sfixed32) => sint:-1072693248
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(6) => bin:000010C0
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(7,sfixed64) => sint:-7
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(7,fixed64) => sint:-7
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(8,sfixed32) => sint:-9
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(8,fixed32) => sint:4294967287
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(9) => bin:68656C6C6F
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(9,int32) => none
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(1,double) => none
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(5,int32) => none
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(10,int32) => sint:34359738368
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(10,uint32) => sint:34359738368
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(10,int64) => sint:34359738368
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(11,int32) => sint:0
            str(CJYBEP///////////wEYAyABKQAAAAAAAPg/NQAAEMA5+f////////9F9////0oFaGVsbG9QgICAgIABWAA=),b64dec,protobuf(11) => bin:00
            str(AAAAAAIIBwAAAAACCAg=),b64dec,ungrpc(1) => bin:07
            str(AAAAAAIQBwAAAAACCAg=),b64dec,ungrpc(1,int32) => sint:8
            str(AQAAAAIIBw==),b64dec,ungrpc(1,int32) => sint:7
            str(AAAAAAUIBw==),b64dec,ungrpc(1,int32) => none
            str(AAAAAAI=),b64dec,ungrpc(1,int32) => none
            str(CAcICA==),b64dec,protobuf(1,int32) => sint:7
            str(CIA=),b64dec,protobuf(1,int32) => none
            str(CgJ4eBAD),b64dec,protobuf(2,int32) => sint:3
            str(CxAD),b64dec,protobuf(2,int32) => none
            str(DhAD),b64dec,protobuf(2,int32) => none
            str(CgA=),b64dec,protobuf(1) => bin:
            str(CgdnYXJiYWdl),b64dec,protobuf(1.1) => none
            str(CAE=),b64dec,protobuf(0) => none
            str(CgV4eBAD),b64dec,protobuf(2) => none
            str(IA==),b64dec,protobuf(4,enum) => sint:0
            str(IA==),b64dec,protobuf(4) => bin:
            str(Ig==),b64dec,protobuf(4) => bin:
            """;
    }

    @Override
    String errors() {
        return """
            str(a),fix_tag_value => invalid args in converter 'fix_tag_value' : Unknown FIX tag name ''
            str(a),fix_tag_value(foo) => invalid args in converter 'fix_tag_value' : Unknown FIX tag name 'foo'
            str(a),fix_tag_value(-1) => invalid args in converter 'fix_tag_value' : Unknown FIX tag name '-1'
            str(a),fix_tag_value(0) => invalid args in converter 'fix_tag_value' : Unknown FIX tag name '0'
            str(a),fix_tag_value(1x) => invalid args in converter 'fix_tag_value' : Unknown FIX tag name '1x'
            str(a),fix_is_valid(1) => invalid arg 1 in converter 'fix_is_valid' : expected ')' before '1)'
            int(1),fix_tag_value(35,1) => invalid arg 2 in converter 'fix_tag_value' : expected ')' before ',1)'
            str(a),mqtt_field_value(foo,flags) => invalid args in converter 'mqtt_field_value' : Unknown MQTT type 'foo'
            str(a),mqtt_field_value(connect,foo) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name 'foo' for packet type 'connect'
            str(a),mqtt_field_value(3,flags) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name 'flags' for packet type '3'
            str(a),mqtt_field_value(publish,flags) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name 'flags' for packet type 'publish'
            str(a),mqtt_field_value(connect,999) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name '999' for packet type 'connect'
            str(a),mqtt_field_value(connect,36) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name '36' for packet type 'connect'
            str(a),mqtt_field_value(connect,18) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name '18' for packet type 'connect'
            str(a),mqtt_field_value(connack,username) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name 'username' for packet type 'connack'
            str(a),mqtt_field_value(connect,0) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name '0' for packet type 'connect'
            str(a),mqtt_field_value(0,flags) => invalid args in converter 'mqtt_field_value' : Unknown MQTT type '0'
            str(a),mqtt_field_value(16,flags) => invalid args in converter 'mqtt_field_value' : Unknown MQTT type '16'
            str(a),mqtt_field_value(connack,25) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name '25' for packet type 'connack'
            str(a),mqtt_field_value(connect,017) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name '017' for packet type 'connect'
            str(a),mqtt_field_value(connect,0x11) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name '0x11' for packet type 'connect'
            str(a),mqtt_is_valid(1) => invalid arg 1 in converter 'mqtt_is_valid' : expected ')' before '1)'
            str(a),mqtt_field_value(connect,) => invalid args in converter 'mqtt_field_value' : Unknown MQTT field name '' for packet type 'connect'
            str(a),mqtt_field_value(,flags) => invalid args in converter 'mqtt_field_value' : Unknown MQTT type ''
            str(a),mqtt_field_value(connect) => invalid arg 2 in converter 'mqtt_field_value' : missing arguments (got 1/2), type 'string' expected
            str(a),protobuf => invalid arg 1 in converter 'protobuf' : expected type 'Protocol buffers field number' at position 1, but got nothing
            str(a),protobuf(x) => invalid arg 1 in converter 'protobuf' : failed to parse 'x' as type 'Protocol buffers field number' at position 1
            str(a),protobuf(1.x) => invalid arg 1 in converter 'protobuf' : failed to parse '1.x' as type 'Protocol buffers field number' at position 1
            str(a),protobuf(1.) => invalid arg 1 in converter 'protobuf' : failed to parse '1.' as type 'Protocol buffers field number' at position 1
            str(a),protobuf(-1) => invalid arg 1 in converter 'protobuf' : failed to parse '-1' as type 'Protocol buffers field number' at position 1
            str(a),protobuf(1,foo) => invalid args in converter 'protobuf' : Wrong protocol buffer type 'foo'
            str(a),protobuf(1,string) => invalid args in converter 'protobuf' : Wrong protocol buffer type 'string'
            str(a),protobuf(1,INT32) => invalid args in converter 'protobuf' : Wrong protocol buffer type 'INT32'
            str(a),protobuf(1,float),add(1) => converter 'add' cannot be applied
            str(a),protobuf(1),add(1) => converter 'add' cannot be applied
            str(a),protobuf(1,) => invalid args in converter 'protobuf' : Wrong protocol buffer type ''
            str(a),ungrpc(1,x) => invalid args in converter 'ungrpc' : Wrong protocol buffer type 'x'
            str(a),ungrpc => invalid arg 1 in converter 'ungrpc' : expected type 'Protocol buffers field number' at position 1, but got nothing
            """;
    }
}
