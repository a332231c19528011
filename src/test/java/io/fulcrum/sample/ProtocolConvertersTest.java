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
            """;
    }
}
